import type { User } from '../../../src-shared/schemas/common'
import type { UserRow } from '../../storage/repositories/userRepository'
import type { Ctx } from '../../workspace/context'

export function presentUser(row: UserRow, ctx: Ctx): User {
  const user: User = {
    object: 'user',
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    urls: { location: ctx.url(`/v1/users/${row.id}`) }
  }
  if (row.photo_url) user.photoURL = row.photo_url
  return user
}
