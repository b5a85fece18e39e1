import { useEffect, useEffectEvent, useState } from 'react'
import { Button, Checkbox, Group, MultiSelect, Radio, Skeleton, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { OrgMergeRules, SpaceMergeRules } from '../../api/types.ts'
import { memberSearchQuery } from '../members/queries.ts'
import { configOf, draftOf, SIMPLE_RULES, type MergeRulesDraft } from './mergeRulesForm.ts'

interface Props {
  /** The stored rules; undefined while they are being read (the form then shows that, never defaults). */
  value: SpaceMergeRules | OrgMergeRules | undefined
  orgId: string
  allowInherit: boolean
  disabled: boolean
  saving: boolean
  onSave(config: SpaceMergeRules): void
}

/**
 * The "Merge rules" form of space and organization settings: none, the organization's (spaces only), or rules:
 * checkboxes, reviewers who must all approve, and who may merge anyway. Saves on its own button. Until the stored
 * rules are known it shows their place loading, with nothing to change or save.
 */
export function MergeRulesForm({ value, ...props }: Props) {
  if (!value)
    return (
      <Stack gap="md" component="section" aria-label="Merge rules" aria-busy="true" data-testid="merge-rules-loading">
        <MergeRulesHeading />
        <Group gap="lg">
          <Skeleton height={18} width={110} />
          <Skeleton height={18} width={110} />
        </Group>
        <Skeleton height={12} width="60%" />
      </Stack>
    )
  return <MergeRulesFields value={value} {...props} />
}

function MergeRulesHeading() {
  return (
    <div>
      <Title order={4}>Merge rules</Title>
      <Text size="sm" c="dimmed">
        What a change request needs before it merges. Outdated reviews (the change request changed since) do not count.
      </Text>
    </div>
  )
}

function MergeRulesFields({ value, orgId, allowInherit, disabled, saving, onSave }: Props & { value: SpaceMergeRules | OrgMergeRules }) {
  const [draft, setDraft] = useState<MergeRulesDraft>(() => draftOf(value))
  const saved = JSON.stringify(configOf(draftOf(value)))
  // New stored rules (by content) replace the draft; the effect event reads them.
  const reload = useEffectEvent(() => setDraft(draftOf(value)))
  useEffect(() => reload(), [saved])
  const dirty = JSON.stringify(configOf(draft)) !== saved
  const members = useQuery(memberSearchQuery(orgId, '')).data ?? []
  const people = members.map((m) => ({ value: m.user.id, label: m.user.displayName || m.user.email || m.user.id }))
  // Ids already chosen stay selectable even when the first page of members does not hold them.
  for (const id of [...draft.reviewers, ...draft.bypass]) if (!people.some((p) => p.value === id)) people.push({ value: id, label: id })

  return (
    <Stack gap="md" component="section" aria-label="Merge rules" data-testid="merge-rules-form">
      <MergeRulesHeading />
      <Radio.Group
        value={draft.type}
        onChange={(type) => setDraft({ ...draft, type: type as MergeRulesDraft['type'] })}
        aria-label="Merge rules apply"
      >
        <Group gap="lg">
          {allowInherit && <Radio value="inherit" label="The organization’s rules" disabled={disabled} />}
          <Radio value="none" label="No rules" disabled={disabled} />
          <Radio value="rules" label="These rules" disabled={disabled} />
        </Group>
      </Radio.Group>
      {draft.type === 'rules' && (
        <Stack gap="sm">
          <Checkbox.Group
            value={draft.simple}
            onChange={(simple) => setDraft({ ...draft, simple })}
            label="Before merging, a change request needs"
          >
            <Stack gap={6} mt={6}>
              {SIMPLE_RULES.map((r) => (
                <Checkbox key={r.rule} value={r.rule} label={r.label} disabled={disabled} />
              ))}
            </Stack>
          </Checkbox.Group>
          <MultiSelect
            label="Approval from each of"
            placeholder="Nobody in particular"
            data={people}
            searchable
            value={draft.reviewers}
            onChange={(reviewers) => setDraft({ ...draft, reviewers })}
            disabled={disabled}
          />
          <MultiSelect
            label="May merge anyway"
            description="They see “Merge anyway” while a rule is unmet"
            placeholder="Nobody"
            data={people}
            searchable
            value={draft.bypass}
            onChange={(bypass) => setDraft({ ...draft, bypass })}
            disabled={disabled}
          />
        </Stack>
      )}
      {!disabled && (
        <Group justify="flex-end">
          <Button disabled={!dirty} loading={saving} onClick={() => onSave(configOf(draft))} data-testid="merge-rules-save">
            Save merge rules
          </Button>
        </Group>
      )}
    </Stack>
  )
}
