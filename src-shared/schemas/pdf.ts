import Type from 'typebox'

export const PdfQuery = Type.Object({
  only: Type.Optional(Type.Boolean({ default: false, description: 'Only the given page, without its children' })),
  page: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Page id: the PDF of this page (and its children)' }))
})
export type PdfQueryInput = Type.Static<typeof PdfQuery>

export const PdfUrlSchema = Type.Object({ url: Type.String({ description: 'Where the PDF is served (valid for about an hour)' }) })
