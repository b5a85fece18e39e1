import { useEffect, useEffectEvent, useState } from 'react'
import { Alert, Badge, Button, Group, Paper, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core'
import { IconInfoCircle, IconUserCheck } from '@tabler/icons-react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { notifyError } from '../../app/notify.ts'
import { useScreenReady } from '../common/screen.ts'
import { orgQuery } from '../orgs/queries.ts'
import { claimsOf, type Claim } from './adaptiveSchema.ts'
import { audienceOf, describeAudience, EVERYONE, type Audience } from './audience.ts'
import { adaptiveSchemaQuery, siteQuery, useMintVisitorToken } from './queries.ts'
import { useCanManageSites } from './SiteScreen.tsx'
import { SitePreviewFrame } from './SitePreviewFrame.tsx'
import classes from './SitePreview.module.css'

type Scheme = 'app' | 'light' | 'dark'

/**
 * The site as readers see it: the draft preview (published or not) beside the audience, a visitor chosen by the
 * claims of the site's adaptive schema. Signed claims go in a visitor token the API signs (admins only);
 * unsigned ones in the address.
 */
export function SitePreviewScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { data: site } = useSuspenseQuery(siteQuery(orgId, siteId))
  const { data: schema } = useSuspenseQuery(adaptiveSchemaQuery(orgId, siteId))
  const canManage = useCanManageSites(orgId)
  const isAdmin = useQuery(orgQuery(orgId)).data?.permissions.admin ?? false
  const mint = useMintVisitorToken(orgId, siteId)
  const claims = claimsOf(schema.jsonSchema)
  const [audience, setAudience] = useState<Audience>(() => audienceOf(claims))
  // What the frame shows: the audience once its token is signed.
  const [shown, setShown] = useState<{ audience: Audience; token?: string }>({
    audience: EVERYONE
  })
  const [scheme, setScheme] = useState<Scheme>('app')
  useScreenReady()

  const key = JSON.stringify(schema.jsonSchema)
  // A new schema (by content) keeps what of the audience still applies; the effect event reads its claims.
  const followSchema = useEffectEvent(() => setAudience((current) => audienceOf(claims, current)))
  useEffect(() => followSchema(), [key])

  const show = (next: Audience) => {
    setAudience(next)
    const signed = Object.fromEntries(Object.entries(next.signed).filter(([, on]) => on))
    if (!Object.keys(signed).length) return setShown({ audience: next })
    mint.mutate(
      { claims: signed },
      {
        onSuccess: (t) => setShown({ audience: next, token: t.token }),
        onError: (e) => notifyError(e)
      }
    )
  }
  const toggle = (claim: Claim, on: boolean) => {
    const part = claim.signed ? 'signed' : 'unsigned'
    show({ ...audience, [part]: { ...audience[part], [claim.name]: on } })
  }

  if (!canManage) {
    return (
      <Alert icon={<IconInfoCircle size={16} />} title="Draft preview" data-testid="site-preview-denied">
        The draft preview is for members who may change sites. Open preview shows the published site.
      </Alert>
    )
  }
  const signedClaims = claims.filter((c) => c.signed)
  const unsignedClaims = claims.filter((c) => !c.signed)
  const adaptive = !!site.adaptiveContent?.enabled
  return (
    <div className={classes.previewLayout}>
      <Paper p="md" withBorder data-testid="audience-panel">
        <div className={classes.audience}>
          <div>
            <Title order={4}>Audience</Title>
            <Text size="sm" c="dimmed">
              See the site as a visitor with these claims: sections and site spaces whose conditions they fail are hidden.
            </Text>
          </div>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Appearance
            </Text>
            <SegmentedControl
              size="xs"
              aria-label="Preview appearance"
              value={scheme}
              onChange={(v) => setScheme(v as Scheme)}
              data={[
                { value: 'app', label: 'As the app' },
                { value: 'light', label: 'Light' },
                { value: 'dark', label: 'Dark' }
              ]}
            />
          </Stack>
          {claims.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="audience-no-claims">
              The site’s adaptive schema declares no claims yet (Adaptive content tab).
            </Text>
          ) : (
            <>
              {signedClaims.length > 0 && (
                <ClaimGroup
                  title="Signed claims"
                  note={isAdmin ? undefined : 'Only admins can sign visitor claims.'}
                  claims={signedClaims}
                  values={audience.signed}
                  disabled={!isAdmin || mint.isPending}
                  onToggle={toggle}
                />
              )}
              {unsignedClaims.length > 0 && (
                <ClaimGroup
                  title="Unsigned claims"
                  note={adaptive ? undefined : 'Adaptive content is off: the site ignores unsigned claims.'}
                  claims={unsignedClaims}
                  values={audience.unsigned}
                  disabled={mint.isPending}
                  onToggle={toggle}
                />
              )}
              <Group justify="space-between" gap="xs">
                <Badge
                  variant="light"
                  leftSection={<IconUserCheck size={12} />}
                  data-testid="audience-summary"
                  style={{ textTransform: 'none' }}
                >
                  {describeAudience(shown.audience)}
                </Badge>
                <Button size="xs" variant="subtle" onClick={() => show(audienceOf(claims))} disabled={mint.isPending}>
                  Clear
                </Button>
              </Group>
            </>
          )}
        </div>
      </Paper>
      <SitePreviewFrame
        orgId={orgId}
        siteId={siteId}
        options={{
          token: shown.token,
          unsigned: shown.audience.unsigned,
          ...(scheme === 'app' ? {} : { scheme })
        }}
      />
    </div>
  )
}

function ClaimGroup(props: {
  title: string
  note?: string
  claims: Claim[]
  values: Record<string, boolean>
  disabled: boolean
  onToggle(claim: Claim, on: boolean): void
}) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {props.title}
      </Text>
      {props.note && (
        <Text size="xs" c="dimmed">
          {props.note}
        </Text>
      )}
      {props.claims.map((claim) => (
        <Switch
          key={claim.expression}
          label={claim.name}
          description={claim.description}
          checked={props.values[claim.name] ?? false}
          disabled={props.disabled}
          onChange={(e) => props.onToggle(claim, e.currentTarget.checked)}
          data-testid={`claim-${claim.signed ? 'signed' : 'unsigned'}-${claim.name}`}
        />
      ))}
    </Stack>
  )
}
