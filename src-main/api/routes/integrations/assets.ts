import Type from 'typebox'
import { readBlob } from '../../../content/files'
import { integrationRepository } from '../../../storage/repositories/integrationRepository'
import { repository } from '../../../storage/repositories/memo'
import type { Api } from '../../app'
import { notFound } from '../../../base/errors'
import type { StoredImage } from '../../presenters/integration'
import { sendDownload } from '../files/contentHeaders'

const AssetParams = Type.Object({ integrationName: Type.String({ maxLength: 100 }), hash: Type.String({ pattern: '^[0-9a-f]{64}$' }) })

/**
 * An integration's icon and preview images, outside /v1 so `<img src>` loads them without a token. The URL names
 * the image by content hash (unguessable, immutable), and only the images of that integration are served.
 */
export default function integrationAssetRoutes(app: Api) {
  app.get('/integrations/:integrationName/assets/:hash', { schema: { hide: true, params: AssetParams } }, async (req, reply) => {
    const { db } = req.server.services
    const row = repository(db, integrationRepository).getByName(req.params.integrationName)
    const images: StoredImage[] = row ? [...(row.icon ? [JSON.parse(row.icon)] : []), ...JSON.parse(row.preview_images)] : []
    const image = images.find((i) => i.hash === req.params.hash)
    const bytes = image && readBlob(db, image.hash)
    if (!image || !bytes) throw notFound('Image')
    return sendDownload(
      reply,
      { bytes, contentType: image.contentType, name: `image-${image.hash.slice(0, 8)}`, etag: image.hash, inline: true },
      req.headers['if-none-match']
    )
  })
}
