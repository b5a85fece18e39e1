import type { Db } from '../database'

/** The workspace's settings (key → value) that name things: its owner. Secrets have their own module (secrets.ts). */
export function settingsRepository(db: Db) {
  const owner = db.prepare<[], string>("SELECT value FROM settings WHERE key = 'owner'").pluck()
  const setOwner = db.prepare(
    `INSERT INTO settings (key, value) VALUES ('owner', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE settings.value IS NOT excluded.value`
  )

  return {
    /** The workspace's owner (a user id); undefined before the workspace is bootstrapped. */
    owner: (): string | undefined => owner.get(),
    /** Makes `userId` the owner; the same owner again writes nothing. */
    setOwner: (userId: string) => void setOwner.run(userId)
  }
}
