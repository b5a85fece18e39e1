import Type from 'typebox'
import { patterned, StringEnum } from './common'

// Quire's addition: progress of long work (a content import, a PDF) that the client names with `job=<id>` on the
// request doing it, read and cancelled while that request runs.

export const JOB_STATES = ['running', 'complete', 'failed', 'cancelled'] as const

export const JobQuery = Type.Object({
  job: Type.Optional(
    Type.String({
      minLength: 8,
      maxLength: 64,
      ...patterned('^[A-Za-z0-9_-]+$', 'letters, digits, _ and -, 8 to 64 of them'),
      description:
        "Quire's addition: an id of the caller's choosing, under which GET /v1/jobs/{id} tells the work's progress and DELETE cancels it"
    })
  )
})

export const JobParams = Type.Object({ jobId: Type.String({ maxLength: 64 }) })

export const JobSchema = Type.Object({
  object: Type.Literal('job'),
  id: Type.String(),
  kind: StringEnum(['import', 'pdf'] as const),
  state: StringEnum(JOB_STATES),
  phase: Type.String({ description: 'import: pages, images, writing; pdf: reading, pages' }),
  done: Type.Integer({ minimum: 0 }),
  total: Type.Optional(Type.Integer({ minimum: 0, description: 'How many there are, when known' }))
})
export type Job = Type.Static<typeof JobSchema>
