import { useEffect, useMemo, useRef, useState } from 'react'
import { Alert, Badge, Button, Code, Divider, Group, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core'
import { IconAlertTriangle, IconBraces } from '@tabler/icons-react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { ApiError } from '../../api/client.ts'
import { notifySuccess } from '../../app/notify.ts'
import { formatRelative } from '../common/format.ts'
import { useScreenReady } from '../common/screen.ts'
import { claimsOf, parseSchemaText, schemaText } from './adaptiveSchema.ts'
import { JsonEditor } from './JsonEditor.tsx'
import { adaptiveSchemaQuery, siteQuery, useSaveAdaptiveSchema, useUpdateSite } from './queries.ts'
import { useCanManageSites } from './SiteScreen.tsx'

/** A starting point for a site without claims: one signed claim and one unsigned one. */
const EXAMPLE = {
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean', description: 'The visitor is in the beta programme' },
    unsigned: {
      type: 'object',
      properties: { prefersDarkDocs: { type: 'boolean', description: 'Passed as ?visitor.prefersDarkDocs=true' } },
      additionalProperties: false
    }
  },
  additionalProperties: false
}

/**
 * Adaptive content: whether the site adapts to its visitors, and the JSON Schema of the claims it knows
 * (which conditions of sections and site spaces may name). The text is checked as JSON before it is sent.
 */
export function AdaptiveContentScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { data: site } = useSuspenseQuery(siteQuery(orgId, siteId))
  const { data: schema } = useSuspenseQuery(adaptiveSchemaQuery(orgId, siteId))
  const canManage = useCanManageSites(orgId)
  const toggle = useUpdateSite(orgId, siteId)
  const save = useSaveAdaptiveSchema(orgId, siteId)
  const saved = schemaText(schema.jsonSchema)
  const [text, setText] = useState(saved)
  const [apiError, setApiError] = useState<string | null>(null)
  const [showSyntax, setShowSyntax] = useState(false)
  useScreenReady()
  const lastSaved = useRef(saved)
  useEffect(() => {
    // A new stored schema (from elsewhere) replaces the text unless the user is editing it.
    setText((current) => (current === lastSaved.current ? saved : current))
    lastSaved.current = saved
  }, [saved])

  const parsed = useMemo(() => parseSchemaText(text), [text])
  const dirty = text !== saved
  const claims = claimsOf(parsed.ok ? parsed.value : schema.jsonSchema)
  const enabled = !!site.adaptiveContent?.enabled
  const syntaxError = !parsed.ok && (showSyntax || dirty) ? parsed : null

  const submit = () => {
    setShowSyntax(true)
    if (!parsed.ok) return
    setApiError(null)
    save.mutate(parsed.value, {
      onSuccess: (s) => {
        setText(schemaText(s.jsonSchema))
        setShowSyntax(false)
        notifySuccess('Adaptive schema saved')
      },
      onError: (e) => setApiError(e instanceof ApiError ? e.message : String(e))
    })
  }

  return (
    <Stack gap="lg" maw={920}>
      <Paper p="lg">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={4}>Adaptive content</Title>
            <Text size="sm" c="dimmed">
              Show sections and spaces only to some visitors, from claims your product passes about them (a signed visitor token, or
              unsigned
              <Code>visitor.&lt;claim&gt;</Code> query parameters).
            </Text>
          </div>
          <Switch
            size="md"
            checked={enabled}
            disabled={!canManage || toggle.isPending}
            onChange={(e) => {
              const next = e.currentTarget.checked
              toggle.mutate(
                { adaptiveContent: { enabled: next } },
                { onSuccess: () => notifySuccess(next ? 'Adaptive content is on' : 'Adaptive content is off') }
              )
            }}
            label={enabled ? 'On' : 'Off'}
            aria-label="Adaptive content"
            data-testid="adaptive-toggle"
          />
        </Group>
      </Paper>

      <Paper p="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={4}>Claims schema</Title>
              <Text size="sm" c="dimmed">
                A JSON Schema (draft-07) of an object whose properties are boolean claims; unsigned claims go under{' '}
                <Code>properties.unsigned</Code>. Updated {formatRelative(schema.updatedAt)}.
              </Text>
            </div>
            {canManage && claims.length === 0 && (
              <Button
                variant="default"
                size="xs"
                leftSection={<IconBraces size={14} />}
                onClick={() => setText(schemaText({ ...schema.jsonSchema, ...EXAMPLE }))}
              >
                Start from an example
              </Button>
            )}
          </Group>
          <JsonEditor
            value={text}
            onChange={(t) => {
              setText(t)
              setApiError(null)
            }}
            errorLine={syntaxError && !syntaxError.ok ? (syntaxError.line ?? null) : null}
            invalid={!!syntaxError || !!apiError}
            readOnly={!canManage}
            testId="adaptive-schema-editor"
          />
          {syntaxError && !syntaxError.ok && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              title="Not valid JSON yet"
              data-testid="schema-syntax-error"
            >
              {syntaxError.message}
            </Alert>
          )}
          {apiError && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              title="The schema was refused"
              data-testid="schema-api-error"
            >
              {apiError}
            </Alert>
          )}
          {canManage && (
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                disabled={!dirty}
                onClick={() => {
                  setText(saved)
                  setApiError(null)
                  setShowSyntax(false)
                }}
              >
                Revert
              </Button>
              <Button onClick={submit} disabled={!dirty} loading={save.isPending} data-testid="schema-save">
                Save schema
              </Button>
            </Group>
          )}
          <Divider />
          <div>
            <Text size="sm" fw={600} mb={6}>
              Claims conditions can use
            </Text>
            {claims.length === 0 ? (
              <Text size="sm" c="dimmed" data-testid="claims-empty">
                None yet. Without declared claims, conditions may name any <Code>visitor.claims.…</Code>.
              </Text>
            ) : (
              <Table withTableBorder={false} verticalSpacing={6} data-testid="claims-table">
                <Table.Tbody>
                  {claims.map((c) => (
                    <Table.Tr key={c.expression}>
                      <Table.Td>
                        <Code>{c.expression}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Badge color={c.signed ? 'indigo' : 'gray'}>{c.signed ? 'Signed' : 'Unsigned'}</Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {c.description ?? ''}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </div>
        </Stack>
      </Paper>
    </Stack>
  )
}
