import type { Api } from '../app'
import orgRoutes from './orgs/orgs'
import changeRequestRoutes from './change-requests/changeRequests'
import reviewRoutes from './change-requests/reviews'
import contentRoutes from './content/content'
import collectionRoutes from './collections/collections'
import customFieldRoutes from './custom-fields/customFields'
import spaceRoutes from './spaces/spaces'
import spaceMoveRoutes from './spaces/spaceMoves'
import spacePermissionRoutes from './spaces/permissions'
import ssoRoutes from './sso/sso'
import memberRoutes from './members/members'
import memberListRoutes from './members/memberLists'
import inviteRoutes from './members/invites'
import teamRoutes from './teams/teams'
import teamMemberRoutes from './teams/teamMembers'
import siteAreaRoutes from './sites'
import commentAreaRoutes from './comments'
import fileRoutes from './files/files'
import importRoutes from './import/import'
import jobRoutes from './jobs/jobs'
import pdfRoutes from './pdf/pdf'
import searchRoutes from './search/search'
import linkRoutes from './links/links'
import openapiRoutes from './openapi/openapi'
import integrationRoutes from './integrations/integrations'
import gitRoutes from './git/git'
import historyRoutes from './history/history'
import auditRoutes from './audit/audit'

/** Every route module of the /v1 API, one per resource area. */
export const routeModules: ((app: Api) => void)[] = [
  orgRoutes,
  changeRequestRoutes,
  reviewRoutes,
  contentRoutes,
  collectionRoutes,
  customFieldRoutes,
  spaceRoutes,
  spaceMoveRoutes,
  spacePermissionRoutes,
  ssoRoutes,
  memberRoutes,
  memberListRoutes,
  inviteRoutes,
  teamRoutes,
  teamMemberRoutes,
  siteAreaRoutes,
  commentAreaRoutes,
  fileRoutes,
  importRoutes,
  jobRoutes,
  pdfRoutes,
  searchRoutes,
  linkRoutes,
  openapiRoutes,
  integrationRoutes,
  gitRoutes,
  historyRoutes,
  auditRoutes
]
