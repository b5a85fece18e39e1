import { readBlob } from '../../../content/files'
import { getRevision, loadFile } from '../../../content/revisions'
import type { Api } from '../../app'
import { read } from '../../../workspace/context'
import { downloadActor } from '../../downloads'
import { notFound } from '../../../base/errors'
import { loadSpace } from '../spaces/loaders'
import { sendDownload } from './contentHeaders'

const Id = { type: 'string', maxLength: 100 } as const

/**
 * The bytes behind a File's `downloadURL`: `/files/<spaceId>/<revisionId>/<fileId>/<name>`. Outside /v1 (an
 * `<img src>` sends no header), so it authorizes itself: bearer token or signed `?token=`, then read access to
 * the space, whose revision it must be. The name segment is cosmetic (the saved file's name comes from the file).
 */
export default function fileRoutes(app: Api) {
  app.get(
    '/files/:spaceId/:revisionId/:fileId/:name',
    {
      schema: {
        hide: true,
        params: {
          type: 'object',
          required: ['spaceId', 'revisionId', 'fileId', 'name'],
          properties: { spaceId: Id, revisionId: Id, fileId: Id, name: { type: 'string', maxLength: 1024 } }
        },
        querystring: { type: 'object', properties: { token: { type: 'string', maxLength: 512 } } }
      }
    },
    async (req, reply) => {
      const { spaceId, revisionId, fileId } = req.params as { spaceId: string; revisionId: string; fileId: string }
      req.actor = downloadActor(req, spaceId, revisionId)
      const { file, bytes } = read(req, (ctx) => {
        const { space } = loadSpace(ctx, spaceId, 'view')
        const revision = getRevision(ctx.db, revisionId)
        if (!revision || revision.space_id !== space.id) throw notFound('File')
        const file = loadFile(ctx.db, revisionId, fileId)
        const bytes = file && readBlob(ctx.db, file.blobHash)
        if (!file || !bytes) throw notFound('File')
        return { file, bytes }
      })
      return sendDownload(
        reply,
        { bytes, contentType: file.contentType, name: file.name, etag: file.blobHash, inline: file.contentType.startsWith('image/') },
        req.headers['if-none-match']
      )
    }
  )
}
