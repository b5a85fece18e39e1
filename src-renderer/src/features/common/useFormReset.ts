import { useEffect, useEffectEvent } from 'react'

/** What the two hooks use of a Mantine form (`useForm`'s object). */
interface ResettableForm<V> {
  getInitialValues(): V
  getValues(): V
  setValues(values: Partial<V>): void
  resetDirty(values?: V): void
  resetTouched(): void
  clearErrors(): void
  isDirty(): boolean
}

/*
 * Mantine's `useForm` object is a new object on every render, so an effect that lists it in its dependencies runs
 * on every keystroke, and one that leaves it out reads a stale closure (and the hooks lint rightly flags it). Both
 * hooks below put the write in an effect event (`useEffectEvent`: it sees the form and values of the latest render
 * and is no dependency) and start it from a stable key only, so no effect of the app has to omit the form.
 */

/**
 * Fills a form when `key` changes: a dialog opens, or opens on another entity. The form gets its initial values
 * overlaid with `values`, which become its clean state (not dirty, not touched, no errors). `values` null or
 * undefined leaves the form as it is (a dialog closing); `{}` is a plain reset to the initial values.
 */
export function useFormReset<V>(form: ResettableForm<V>, values: NoInfer<Partial<V>> | null | undefined, key: unknown): void {
  const reset = useEffectEvent(() => {
    if (!values) return
    const next = { ...form.getInitialValues(), ...values }
    form.setValues(next)
    form.resetDirty(next)
    form.resetTouched()
    form.clearErrors()
  })
  useEffect(() => reset(), [key])
}

/**
 * Keeps a form on the stored values it edits while the user has not changed it: when `stored` changes (a
 * refetch, another window's write), a form that is not dirty shows it and takes it as its clean state; a form
 * mid-edit keeps the user's text. `stored` may name only some of the form's fields; the others are kept. The
 * values are compared by content (they are plain JSON), so a refetch that changed nothing does nothing.
 */
export function useFormFollow<V>(form: ResettableForm<V>, stored: NoInfer<Partial<V>>): void {
  const follow = useEffectEvent(() => {
    if (form.isDirty()) return
    const next = { ...form.getValues(), ...stored }
    form.setValues(next)
    form.resetDirty(next)
  })
  const key = JSON.stringify(stored)
  useEffect(() => follow(), [key])
}
