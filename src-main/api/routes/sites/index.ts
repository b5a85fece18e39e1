import type { Api } from '../../app'
import sitePreviewRoutes from './preview'
import sitePreviewAccessRoutes from './sitePreviews'
import siteSectionGroupRoutes from './sectionGroups'
import siteSectionRoutes from './sections'
import siteSettingRoutes from './siteSettings'
import siteRoutes from './sites'
import siteSpaceRoutes from './siteSpaces'
import siteShareLinkRoutes from './shareLinks'
import sitePermissionRoutes from './permissions'
import siteRedirectRoutes from './redirects'

/** The sites area: sites, their structure, share links, redirects, adaptive content, customization and the local preview. */
export default function siteAreaRoutes(app: Api) {
  for (const register of [
    siteRoutes,
    siteSettingRoutes,
    siteSpaceRoutes,
    siteSectionRoutes,
    siteSectionGroupRoutes,
    siteShareLinkRoutes,
    sitePermissionRoutes,
    siteRedirectRoutes,
    sitePreviewAccessRoutes,
    sitePreviewRoutes
  ]) {
    register(app)
  }
}
