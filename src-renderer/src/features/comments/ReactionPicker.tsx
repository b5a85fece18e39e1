import { useState, type ReactNode } from 'react'
import { Popover, Text, TextInput, UnstyledButton } from '@mantine/core'
import { IconSearch } from '@tabler/icons-react'
import { QUICK_REACTIONS, searchReactions, type ReactionEmoji } from './reactionEmoji.ts'
import classes from './Comments.module.css'

// One emoji typed or pasted that the set does not name (the API's rule: at least one pictographic code point).
const LONE_EMOJI = /^(?=.*(?:\p{Extended_Pictographic}|\p{Regional_Indicator}))[^\s\p{Cc}]{1,16}$/u

/**
 * Picks a reaction: the quick ones on top, then a searchable set (by name: "rocket" finds 🚀); Enter takes the
 * first match, and any other emoji can be typed or pasted.
 */
export function ReactionPicker({
  mine,
  onPick,
  children
}: {
  mine: ReadonlySet<string>
  onPick(emoji: string): void
  children: ReactNode
}) {
  const [opened, setOpened] = useState(false)
  const [query, setQuery] = useState('')
  const found = searchReactions(query)
  const typed = query.trim()
  const custom = found.length === 0 && LONE_EMOJI.test(typed) ? typed : null
  const pick = (emoji: string) => {
    onPick(emoji)
    setOpened(false)
    setQuery('')
  }
  const cell = (r: ReactionEmoji) => (
    <UnstyledButton
      key={r.emoji}
      className={classes.pickerCell}
      data-mine={mine.has(r.emoji) || undefined}
      aria-label={`React with ${r.name}`}
      title={r.name}
      onClick={() => pick(r.emoji)}
      data-testid="reaction-option"
    >
      {r.emoji}
    </UnstyledButton>
  )
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={296} trapFocus>
      <Popover.Target>
        <span className={classes.pickerTarget} onClick={() => setOpened((o) => !o)}>
          {children}
        </span>
      </Popover.Target>
      <Popover.Dropdown data-testid="reaction-picker" p={8}>
        <TextInput
          size="xs"
          placeholder="Search reactions"
          aria-label="Search reactions"
          leftSection={<IconSearch size={13} />}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          onKeyDown={(e) => {
            const first = found[0]?.emoji ?? custom
            if (e.key === 'Enter' && first) {
              e.preventDefault()
              pick(first)
            }
          }}
          data-autofocus
          mb={8}
        />
        {!typed && (
          <>
            <div className={classes.pickerGrid} aria-label="Quick reactions" role="group">
              {QUICK_REACTIONS.map(cell)}
            </div>
            <div className={classes.pickerDivider} />
          </>
        )}
        <div className={classes.pickerScroll}>
          <div className={classes.pickerGrid} role="group" aria-label={typed ? 'Matching reactions' : 'More reactions'}>
            {(typed ? found : found.slice(QUICK_REACTIONS.length)).map(cell)}
          </div>
          {custom && (
            <UnstyledButton
              className={classes.pickerCell}
              aria-label={`React with ${custom}`}
              onClick={() => pick(custom)}
              data-testid="reaction-option"
            >
              {custom}
            </UnstyledButton>
          )}
          {found.length === 0 && !custom && (
            <Text size="xs" c="dimmed" py={6} ta="center">
              No reaction matches “{typed}”
            </Text>
          )}
        </div>
      </Popover.Dropdown>
    </Popover>
  )
}
