import type { MergeRule, MergeStatus, OrgMergeRules, SpaceMergeRules } from '../../../src-shared/schemas/reviews'
import { badRequest } from '../../base/errors'
import { memberRepository } from '../../storage/repositories/memberRepository'
import { organizationRepository } from '../../storage/repositories/organizationRepository'
import type { ChangeRequestRow } from '../../storage/repositories/changeRequestRepository'
import { reviewRepository } from '../../storage/repositories/reviewRepository'
import type { SpaceRow } from '../../storage/repositories/spaceRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'
import { isOutdated } from '../commands/changeRequestMerger'

/** The rules that apply to a space's merges: its own, else its organization's (none when neither has rules). */
export function effectiveMergeRules(ctx: Ctx, space: SpaceRow): { source: 'space' | 'organization'; rules: MergeRule[] } {
  const own = space.merge_rules ? (JSON.parse(space.merge_rules) as SpaceMergeRules) : { type: 'inherit' as const }
  if (own.type !== 'inherit') return { source: 'space', rules: own.type === 'rules' ? own.rules : [] }
  const org = ctx.repo(organizationRepository).get(space.organization_id)
  const inherited = org?.merge_rules ? (JSON.parse(org.merge_rules) as OrgMergeRules) : { type: 'none' as const }
  return { source: 'organization', rules: inherited.type === 'rules' ? inherited.rules : [] }
}

/** Checks a configuration's user ids name members of the organization (400 naming the first that does not). */
export function checkMergeRules(ctx: Ctx, organizationId: string, config: SpaceMergeRules | OrgMergeRules): void {
  if (config.type !== 'rules') return
  const members = ctx.repo(memberRepository)
  config.rules.forEach((rule, i) => {
    if (!('users' in rule)) return
    rule.users.forEach((id, j) => {
      if (!members.get(organizationId, id)) throw badRequest(`mergeRules.rules.${i}.users.${j}: ${id} is not a member of the organization`)
    })
    if (rule.rule !== 'allow_bypass' && !rule.users.length) throw badRequest(`mergeRules.rules.${i}.users: name at least one reviewer`)
  })
}

/**
 * What a merge of the change request by the caller meets now: each unmet rule with a sentence saying why, and
 * whether the caller may merge past them. Only current reviews count (outdated ones do not).
 */
export function mergeStatus(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow): MergeStatus {
  const { source, rules } = effectiveMergeRules(ctx, space)
  const reviews = ctx.repo(reviewRepository).current(cr.id)
  const approvers = new Set(reviews.filter((r) => r.status === 'approved').map((r) => r.reviewer_id))
  const names = ctx.repo(userRepository).getMany(rules.flatMap((r) => ('users' in r ? r.users : [])))
  const name = (id: string) => names.get(id)?.display_name ?? id
  const unmet: MergeStatus['unmet'] = []
  const fail = (rule: string, message: string) => unmet.push({ rule, message })
  for (const rule of rules) {
    switch (rule.rule) {
      case 'require_at_least_one_review':
        if (!reviews.length) fail(rule.rule, 'At least one review is required')
        break
      case 'require_at_least_one_approved_review':
        if (!approvers.size) fail(rule.rule, 'At least one approving review is required')
        break
      case 'require_all_reviews_approved': {
        const requested = ctx.repo(reviewRepository).allRequests(cr.id)
        const against = reviews.filter((r) => r.status !== 'approved').length
        if (against)
          fail(rule.rule, `Every review must approve: ${against} ${against === 1 ? 'review requests' : 'reviews request'} changes`)
        else if (requested.length)
          fail(
            rule.rule,
            `Every review must approve: ${requested.length} requested ${requested.length === 1 ? 'review is' : 'reviews are'} still pending`
          )
        else if (!reviews.length) fail(rule.rule, 'Every review must approve: there is no review yet')
        break
      }
      case 'require_specific_reviewers': {
        const missing = rule.users.filter((u) => !approvers.has(u))
        if (missing.length) fail(rule.rule, `Approval required from ${missing.map(name).join(', ')}`)
        break
      }
      case 'require_one_of_specific_reviewers':
        if (!rule.users.some((u) => approvers.has(u))) fail(rule.rule, `Approval required from one of ${rule.users.map(name).join(', ')}`)
        break
      case 'require_up_to_date_change_request':
        if (isOutdated(cr, space)) fail(rule.rule, 'The change request must be up to date with the main content: update it first')
        break
      case 'require_change_request_subject':
        if (!cr.subject.trim()) fail(rule.rule, 'The change request needs a subject')
        break
      case 'require_author_to_merge':
        if (cr.created_by !== ctx.actor.id) fail(rule.rule, 'Only the author of the change request may merge it')
        break
      case 'allow_bypass':
        break
    }
  }
  const canBypass = rules.some((r) => r.rule === 'allow_bypass' && r.users.includes(ctx.actor.id))
  return { source, rules, unmet, canBypass }
}
