import type { MergeRule, OrgMergeRules, SpaceMergeRules } from '../../api/types.ts'

/** The rules the form offers as checkboxes (those without users), with their labels. */
export const SIMPLE_RULES = [
  { rule: 'require_at_least_one_approved_review', label: 'At least one approving review' },
  { rule: 'require_at_least_one_review', label: 'At least one review' },
  { rule: 'require_all_reviews_approved', label: 'Every review approves (no pending requests)' },
  { rule: 'require_up_to_date_change_request', label: 'Up to date with main' },
  { rule: 'require_change_request_subject', label: 'A subject' },
  { rule: 'require_author_to_merge', label: 'Only the author merges' }
] as const

export interface MergeRulesDraft {
  type: 'inherit' | 'none' | 'rules'
  simple: string[]
  /** Users who must all approve. */
  reviewers: string[]
  /** Users who may merge past unmet rules. */
  bypass: string[]
}

export function draftOf(config: SpaceMergeRules | OrgMergeRules): MergeRulesDraft {
  const draft: MergeRulesDraft = { type: config.type, simple: [], reviewers: [], bypass: [] }
  if (config.type !== 'rules') return draft
  for (const r of config.rules) {
    if (r.rule === 'require_specific_reviewers' && 'users' in r) draft.reviewers = r.users
    else if (r.rule === 'allow_bypass' && 'users' in r) draft.bypass = r.users
    else if (!('users' in r)) draft.simple.push(r.rule)
  }
  return draft
}

/** The configuration a draft sends (`mergeRules` of PATCH …/spaces/{id} or …/orgs/{id}). */
export function configOf(draft: MergeRulesDraft): SpaceMergeRules {
  if (draft.type !== 'rules') return { type: draft.type }
  const rules: MergeRule[] = SIMPLE_RULES.filter((r) => draft.simple.includes(r.rule)).map((r) => ({ rule: r.rule }))
  if (draft.reviewers.length) rules.push({ rule: 'require_specific_reviewers', users: draft.reviewers })
  if (draft.bypass.length) rules.push({ rule: 'allow_bypass', users: draft.bypass })
  return { type: 'rules', rules }
}
