import { useState, type ReactNode } from 'react'
import { Button, Group, Popover, Text, TextInput, UnstyledButton } from '@mantine/core'
import classes from './EmojiPicker.module.css'

// SimpleGrid is avoided on purpose: it writes a <style> element, which the CSP refuses.
// A short, calm palette for documentation spaces; any other emoji can be typed or pasted.
const EMOJI = [
  '📘',
  '📗',
  '📙',
  '📕',
  '📓',
  '📔',
  '📒',
  '📚',
  '📄',
  '📝',
  '📋',
  '📌',
  '📎',
  '🗂️',
  '🗃️',
  '🗄️',
  '💡',
  '🚀',
  '🛠️',
  '⚙️',
  '🔧',
  '🧪',
  '🧭',
  '🗺️',
  '🔒',
  '🔑',
  '🛡️',
  '📣',
  '💬',
  '❓',
  '✅',
  '⚠️',
  '🎨',
  '🧩',
  '📦',
  '🌐',
  '💻',
  '📱',
  '🖥️',
  '☁️',
  '👋',
  '🤝',
  '🎓',
  '🏁',
  '⭐',
  '🔥',
  '🌱',
  '🏠'
]

/** Picks a space's emoji: a grid of common ones, a field for any other, and "none". */
export function EmojiPicker({ value, onChange, children }: { value: string; onChange: (emoji: string) => void; children: ReactNode }) {
  const [opened, setOpened] = useState(false)
  const [custom, setCustom] = useState('')
  const pick = (emoji: string) => {
    onChange(emoji)
    setOpened(false)
    setCustom('')
  }
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={300} trapFocus>
      <Popover.Target>
        <span className={classes.target} onClick={() => setOpened((o) => !o)}>
          {children}
        </span>
      </Popover.Target>
      <Popover.Dropdown data-testid="emoji-picker">
        <Text size="xs" fw={600} c="dimmed" mb={6}>
          Choose an emoji
        </Text>
        <div className={classes.grid}>
          {EMOJI.map((emoji) => (
            <UnstyledButton
              key={emoji}
              className={classes.cell}
              data-selected={emoji === value || undefined}
              aria-label={`Use ${emoji}`}
              onClick={() => pick(emoji)}
            >
              {emoji}
            </UnstyledButton>
          ))}
        </div>
        <Group gap={6} mt="sm" wrap="nowrap">
          <TextInput
            size="xs"
            placeholder="Type or paste another"
            value={custom}
            onChange={(e) => setCustom(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && custom.trim()) {
                e.preventDefault()
                pick(custom.trim())
              }
            }}
            style={{ flex: 1 }}
            aria-label="Custom emoji"
          />
          <Button size="xs" variant="default" disabled={!custom.trim()} onClick={() => pick(custom.trim())}>
            Use
          </Button>
          <Button size="xs" variant="subtle" color="gray" onClick={() => pick('')} disabled={!value}>
            None
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  )
}
