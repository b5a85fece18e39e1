import { useState, type ReactNode } from 'react'
import { Checkbox, Select, Stack, Text, TextInput } from '@mantine/core'
import { fieldError } from '../../api/apiError.ts'
import {
  configurationErrors,
  formFields,
  formState,
  valuesFromForm,
  type ConfigurationSchema,
  type ConfigurationValues,
  type FormState
} from '../../../../src-shared/integrationConfiguration.ts'
import { notifyError } from '../../app/notify.ts'

/**
 * A form generated from an integration's configuration schema: text, number, checkbox and select fields,
 * required ones marked. Required values are checked here; the API's refusal of a value lands under its field
 * (`configuration.<name>: …`), anything else is a toast. `children` renders the dialog's other fields and actions.
 */
export function ConfigurationForm({
  schema,
  values,
  onSubmit,
  before,
  children
}: {
  schema: ConfigurationSchema | undefined
  values?: ConfigurationValues
  onSubmit: (values: ConfigurationValues) => Promise<unknown>
  before?: ReactNode
  children: ReactNode
}) {
  const fields = formFields(schema)
  const [state, setState] = useState<FormState>(() => formState(schema, values))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const set = (name: string, value: string | boolean) => {
    setState((s) => ({ ...s, [name]: value }))
    setErrors(({ [name]: _, ...rest }) => rest)
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    const next = valuesFromForm(schema, state, values)
    const missing = configurationErrors(schema, next, true).filter((err) => err.message === 'is required')
    if (missing.length) {
      setErrors(Object.fromEntries(missing.map((err) => [err.name, 'Required'])))
      return
    }
    try {
      await onSubmit(next)
    } catch (error) {
      const blamed = fieldError(error)
      const name = blamed?.path.startsWith('configuration.') ? blamed.path.slice('configuration.'.length) : undefined
      if (name && fields.some((f) => f.name === name)) {
        setErrors({ [name]: blamed!.rule.charAt(0).toUpperCase() + blamed!.rule.slice(1) })
      } else {
        notifyError(error)
      }
    }
  }

  return (
    <form onSubmit={submit} noValidate data-testid="configuration-form">
      <Stack gap="sm">
        {before}
        {fields.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="configuration-none">
            This integration has nothing to configure here.
          </Text>
        )}
        {fields.map((field) => {
          const common = {
            label: field.label,
            description: field.description,
            error: errors[field.name],
            withAsterisk: field.required,
            'data-testid': `config-${field.name}`
          }
          if (field.kind === 'checkbox') {
            return (
              <Checkbox
                key={field.name}
                {...common}
                checked={state[field.name] === true}
                onChange={(e) => set(field.name, e.currentTarget.checked)}
              />
            )
          }
          if (field.kind === 'select') {
            return (
              <Select
                key={field.name}
                {...common}
                data={field.options}
                value={(state[field.name] as string) || null}
                onChange={(v) => set(field.name, v ?? '')}
                clearable={!field.required}
                comboboxProps={{ withinPortal: true }}
              />
            )
          }
          return (
            <TextInput
              key={field.name}
              {...common}
              inputMode={field.kind === 'number' ? 'decimal' : undefined}
              value={state[field.name] as string}
              onChange={(e) => set(field.name, e.currentTarget.value)}
            />
          )
        })}
        {children}
      </Stack>
    </form>
  )
}
