import { configurationErrors, type ConfigurationSchema, type ConfigurationValues } from '../../../../src-shared/integrationConfiguration'
import { installationRepository } from '../../../storage/repositories/installationRepository'
import { integrationRepository, type InstallationRow, type IntegrationRow } from '../../../storage/repositories/integrationRepository'
import type { Ctx } from '../../../workspace/context'
import { badRequest, forbidden, notFound } from '../../../base/errors'
import { authorizeIntegration, integrationViewer, isAdminOf } from '../../policies/integration'

/** The integration's configuration schema for a target (undefined when it declares none: any values pass). */
export function configurationSchema(integration: IntegrationRow, target: 'account' | 'space' | 'site'): ConfigurationSchema | undefined {
  return JSON.parse(integration.configurations)[target]
}

/** 400 naming the first property whose value the schema refuses (`configuration.<name>: <rule>`). */
export function checkConfiguration(schema: ConfigurationSchema | undefined, values: ConfigurationValues, complete: boolean): void {
  const [error] = configurationErrors(schema, values, complete)
  if (error) throw badRequest(`configuration.${error.name}: ${error.message}`)
}

/**
 * An installation of a visible integration. `view`: non-guest members of its organization, and admins of the
 * integration's owner (who list its installations anyway); anyone else gets 404. `admin`: admins of its
 * organization (403 for the others who see it).
 */
export function loadInstallation(
  ctx: Ctx,
  params: { integrationName: string; installationId: string },
  action: 'view' | 'admin'
): { integration: IntegrationRow; installation: InstallationRow } {
  const integration = authorizeIntegration(ctx, ctx.repo(integrationRepository).getByName(params.integrationName), 'view')
  const installation = ctx.repo(installationRepository).get(params.installationId)
  if (!installation || installation.integration_id !== integration.id) throw notFound('Installation')
  const roles = integrationViewer(ctx).roles
  const sees = roles.get(installation.organization_id) != null || roles.get(integration.owner_id) === 'admin'
  if (!sees) throw notFound('Installation')
  if (action === 'admin' && !isAdminOf(ctx, installation.organization_id)) {
    throw forbidden('This operation needs the admin role in the organization the integration is installed in')
  }
  return { integration, installation }
}

/** Whether an integration's `target` lets it be installed on spaces (`space`) or sites (`site`). */
export function checkTarget(integration: IntegrationRow, target: 'space' | 'site'): void {
  if (integration.target !== 'all' && integration.target !== target) {
    throw badRequest(
      `${target}: ${integration.name} installs on ${integration.target === 'organization' ? 'the organization' : `${integration.target}s`} only`
    )
  }
}
