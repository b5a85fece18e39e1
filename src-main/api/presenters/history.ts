import type { RevisionSummary } from '../../../src-shared/schemas/history'
import type { RevisionListRow } from '../../storage/repositories/revisionRepository'
import { userRepository } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'
import { presentUser } from './user'

/** Revision summaries of one space's history; their authors are loaded in one query. */
export function presentRevisionSummaries(rows: RevisionListRow[], ctx: Ctx): RevisionSummary[] {
  const users = ctx.repo(userRepository).getMany(rows.map((r) => r.created_by).filter((id): id is string => !!id))
  return rows.map((row) => {
    const out: RevisionSummary = {
      object: 'revision',
      id: row.id,
      parents: JSON.parse(row.parents) as string[],
      createdAt: row.created_at,
      type: row.type
    }
    const author = row.created_by ? users.get(row.created_by) : undefined
    if (author) out.createdBy = presentUser(author, ctx)
    if (row.cr_id) out.changeRequest = { id: row.cr_id, number: row.cr_number!, subject: row.cr_subject! }
    return out
  })
}
