import { useEffect } from 'react'
import { useParams } from '@tanstack/react-router'
import type { Organization } from '../../api/types.ts'
import { useUiStore } from '../../stores/uiStore.ts'

/**
 * The organization the shell is showing: the one in the address when there is one (`/orgs/$orgId/...`),
 * else the last one visited (a space screen sets it from the space), else the first of the caller's.
 */
export function useCurrentOrgId(orgs: Organization[] | undefined): string | undefined {
  const params = useParams({ strict: false }) as { orgId?: string }
  const lastOrgId = useUiStore((s) => s.lastOrgId)
  const setLastOrgId = useUiStore((s) => s.setLastOrgId)
  useEffect(() => {
    if (params.orgId) setLastOrgId(params.orgId)
  }, [params.orgId, setLastOrgId])
  if (params.orgId) return params.orgId
  if (lastOrgId && (!orgs || orgs.some((o) => o.id === lastOrgId))) return lastOrgId
  return orgs?.[0]?.id
}
