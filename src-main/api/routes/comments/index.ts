import type { Api } from '../../app'
import commentRoutes from './comments'
import commentReplyRoutes from './replies'

/** The comments area: comments on a space's content or its change requests, and their replies. */
export default function commentAreaRoutes(app: Api) {
  commentRoutes(app)
  commentReplyRoutes(app)
}
