import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, Textarea } from '@mantine/core'
import { BODY_MAX, bodyErrorMessage } from './messages.ts'
import classes from './Comments.module.css'

const MOD_KEY = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl'

/**
 * A markdown textarea that posts with Ctrl/Cmd+Enter (or its button), is disabled while posting, and shows the
 * API's refusal beneath itself. `drafts` keeps unsent text by `draftKey` while a virtualized row is unmounted.
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
}) {
  const [value, setValue] = useState(() => (draftKey && drafts?.get(draftKey)) || initialValue)
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const textarea = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    if (focusSignal > 0) textarea.current?.focus()
  }, [focusSignal])

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
        onChange={(e) => change(e.currentTarget.value)}
        onKeyDown={(e) => {
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
