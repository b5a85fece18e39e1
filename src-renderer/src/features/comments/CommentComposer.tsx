import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { Avatar, Button, Textarea, UnstyledButton } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { initials } from '../common/format.ts'
import { spaceQuery } from '../content/queries.ts'
import { memberSearchQuery } from '../members/queries.ts'
import { insertMention, mentionQueryAt } from './mentions.ts'
import { BODY_MAX, bodyErrorMessage } from './messages.ts'
import classes from './Comments.module.css'

const MOD_KEY = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl'

interface Candidate {
  id: string
  name: string
  email?: string
  photoURL?: string
}

const CANDIDATES_SHOWN = 6

/** Members of the space's organization matching what follows `@` (the members picker's search). */
function useMentionCandidates(spaceId: string | undefined, query: string | null): Candidate[] {
  const orgId = useQuery({ ...spaceQuery(spaceId ?? ''), enabled: !!spaceId }).data?.organization
  const [debounced] = useDebouncedValue(query ?? '', 150)
  const members = useQuery({ ...memberSearchQuery(orgId ?? '', debounced), enabled: !!orgId && query !== null }).data
  if (query === null || !members) return []
  // The list answered for an earlier, shorter query is shown until the debounced one arrives: only its members
  // matching what is typed now are offered (the server's rule: the name or the email contains it), so Enter never
  // picks someone the query no longer names.
  const typed = query.toLocaleLowerCase()
  return members
    .filter((m) => !m.disabled)
    .filter(
      (m) => (m.user.displayName ?? '').toLocaleLowerCase().includes(typed) || (m.user.email ?? '').toLocaleLowerCase().includes(typed)
    )
    .slice(0, CANDIDATES_SHOWN)
    .map((m) => ({ id: m.id, name: m.user.displayName || m.user.email || m.id, email: m.user.email, photoURL: m.user.photoURL }))
}

/**
 * A markdown textarea that posts with Ctrl/Cmd+Enter (or its button), is disabled while posting, and shows the
 * API's refusal beneath itself. `drafts` keeps unsent text by `draftKey` while a virtualized row is unmounted.
 * With `spaceId`, typing `@` offers the members of the space's organization and inserts a mention (`mentions.ts`).
 */
export function CommentComposer({
  noun,
  placeholder,
  submitLabel,
  onSubmit,
  onCancel,
  initialValue = '',
  drafts,
  draftKey,
  focusSignal = 0,
  autoFocus,
  footer,
  minRows = 2,
  testId,
  spaceId
}: {
  noun: 'Comment' | 'Reply'
  placeholder: string
  submitLabel: string
  onSubmit(markdown: string): Promise<unknown>
  onCancel?(): void
  initialValue?: string
  drafts?: Map<string, string>
  draftKey?: string
  /** Focuses the textarea whenever it changes (a "Reply" button asking for it). */
  focusSignal?: number
  autoFocus?: boolean
  /** Shown left of the buttons (the space tab's page picker). */
  footer?: ReactNode
  minRows?: number
  testId: string
  /** Offers @mentions of the members of this space's organization. */
  spaceId?: string
}) {
  const [value, setValue] = useState(() => (draftKey && drafts?.get(draftKey)) || initialValue)
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const textarea = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    if (focusSignal > 0) textarea.current?.focus()
  }, [focusSignal])

  // The @word being typed at the caret, unless Escape dismissed the one starting there.
  const [caret, setCaret] = useState(0)
  const [dismissed, setDismissed] = useState<number | null>(null)
  const [highlight, setHighlight] = useState(0)
  const typedMention = spaceId ? mentionQueryAt(value, caret) : null
  const mention = typedMention && typedMention.start !== dismissed ? typedMention : null
  const candidates = useMentionCandidates(spaceId, mention?.query ?? null)
  const choosing = mention !== null && candidates.length > 0
  const active = Math.min(highlight, Math.max(0, candidates.length - 1))
  const caretAfter = useRef<number | null>(null)
  useLayoutEffect(() => {
    if (caretAfter.current === null || !textarea.current) return
    textarea.current.setSelectionRange(caretAfter.current, caretAfter.current)
    setCaret(caretAfter.current)
    caretAfter.current = null
  }, [value])
  const choose = (candidate: Candidate) => {
    if (!mention) return
    const next = insertMention(value, mention.start, caret, candidate)
    caretAfter.current = next.caret
    change(next.text)
    setHighlight(0)
  }

  const change = (next: string) => {
    setValue(next)
    if (draftKey && drafts) {
      if (next && next !== initialValue) drafts.set(draftKey, next)
      else drafts.delete(draftKey)
    }
    if (error) setError(null)
  }
  const blank = !value.trim()
  const unchanged = initialValue !== '' && value === initialValue
  const submit = async () => {
    if (blank || pending) return
    if (unchanged) return onCancel?.()
    setPending(true)
    setError(null)
    try {
      await onSubmit(value)
      change('')
    } catch (cause) {
      setError(bodyErrorMessage(cause, noun))
    } finally {
      setPending(false)
    }
  }
  // The textarea is disabled while posting, which drops focus: give it back for the next message.
  const wasPending = useRef(false)
  useEffect(() => {
    if (wasPending.current && !pending && document.activeElement === document.body) textarea.current?.focus({ preventScroll: true })
    wasPending.current = pending
  }, [pending])

  const nearLimit = value.length > BODY_MAX * 0.9
  return (
    <form
      className={classes.composer}
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <Textarea
        ref={textarea}
        autosize
        minRows={minRows}
        maxRows={12}
        placeholder={placeholder}
        aria-label={placeholder}
        value={value}
        onChange={(e) => {
          change(e.currentTarget.value)
          setCaret(e.currentTarget.selectionStart)
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={(e) => {
          if (choosing && !e.metaKey && !e.ctrlKey && !e.altKey) {
            const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0
            if (step) {
              e.preventDefault()
              setHighlight((active + step + candidates.length) % candidates.length)
              return
            }
            if (e.key === 'Enter' || e.key === 'Tab') {
              e.preventDefault()
              choose(candidates[active]!)
              return
            }
            if (e.key === 'Escape') {
              e.preventDefault()
              e.stopPropagation()
              setDismissed(mention?.start ?? null)
              return
            }
          }
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
            e.preventDefault()
            void submit()
          } else if (e.key === 'Escape' && onCancel) {
            e.preventDefault()
            e.stopPropagation()
            onCancel()
          }
        }}
        disabled={pending}
        autoFocus={autoFocus}
        error={error}
        errorProps={{ 'data-testid': `${testId}-error`, role: 'alert' }}
        data-testid={`${testId}-input`}
      />
      {choosing && (
        <div className={classes.mentionList} role="listbox" aria-label="Mention a member" data-testid={`${testId}-mentions`}>
          {candidates.map((c, i) => (
            <UnstyledButton
              key={c.id}
              role="option"
              aria-selected={i === active}
              className={classes.mentionOption}
              // Keeps the focus (and the caret) in the textarea.
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setHighlight(i)}
              onClick={() => choose(c)}
              data-testid="mention-option"
            >
              <Avatar size={20} radius="xl" color="initials" name={c.name} src={c.photoURL}>
                {initials(c.name)}
              </Avatar>
              <span className={classes.mentionName}>{c.name}</span>
              {c.email && c.email !== c.name && <span className={classes.mentionEmail}>{c.email}</span>}
            </UnstyledButton>
          ))}
        </div>
      )}
      <div className={classes.composerFooter}>
        {footer}
        <span className={classes.spacer} />
        {nearLimit ? (
          <span className={classes.counter} data-over={value.length > BODY_MAX || undefined}>
            {value.length.toLocaleString()} / {BODY_MAX.toLocaleString()}
          </span>
        ) : (
          <span className={classes.hint}>Markdown · {MOD_KEY}+Enter to send</span>
        )}
        {onCancel && (
          <Button size="compact-sm" variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="compact-sm" loading={pending} disabled={blank} data-testid={`${testId}-submit`}>
          {submitLabel}
        </Button>
      </div>
    </form>
  )
}
