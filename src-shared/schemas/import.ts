import Type from 'typebox'
import { ChangeRequestSchema } from './changeRequests'
import { StringEnum } from './common'

/** Where imported content comes from (addendum): `website` also follows the page's same-site links. */
export const IMPORT_SOURCES = ['website', 'markdown', 'html', 'docx'] as const
export type ImportSource = (typeof IMPORT_SOURCES)[number]

export const ContentImportSchema = Type.Object({
  url: Type.String({ format: 'uri', maxLength: 2048, description: 'An http or https URL to fetch' }),
  source: StringEnum(IMPORT_SOURCES),
  changeRequest: Type.Optional(
    Type.Object(
      { subject: Type.Optional(Type.String({ maxLength: 100 })) },
      { description: 'Import into a new change request with this subject (space import only), opened only if the import succeeds' }
    )
  )
})
export type ContentImport = Type.Static<typeof ContentImportSchema>

export const ImportResultSchema = Type.Object({
  revision: Type.String({ description: 'The revision the import created' }),
  importedResources: Type.Number({ description: 'Pages created' }),
  totalResources: Type.Number({ description: 'Resources found (a website: every page reached, imported or not)' }),
  changeRequest: Type.Optional(ChangeRequestSchema)
})
export type ImportResult = Type.Static<typeof ImportResultSchema>
