import type { APIRequestContext } from '@playwright/test'
import { test, expect } from '../fixtures/server.ts'
import { CommentsPage } from '../pages/commentsPage.ts'
import { EditorPage } from '../pages/editorPage.ts'
import { spaceWithPages } from './seed.ts'

interface Listed<T> {
  items: T[]
  count: number
}
interface ApiComment {
  id: string
  status?: string
  replies: number
  body: { markdown?: string }
  reactions: { emoji: string; count: number; users: { user: { id: string } }[] }[]
  target: { page?: { id: string; title: string } }
}

async function json<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), `${res.url()} answered ${res.status()}`).toBe(true)
  return (await res.json()) as T
}

/** A space with an extra page, made through the API (the flows under test are about comments). */
async function arrangeSpace(api: APIRequestContext, suffix: string) {
  const orgId = (await json<Listed<{ id: string }>>(await api.get('/v1/orgs'))).items[0]!.id
  const space = await json<{ id: string }>(await api.post(`/v1/orgs/${orgId}/spaces`, { data: { title: `Handbook ${suffix}` } }))
  const pageTitle = `Install guide ${suffix}`
  const cr = await json<{ id: string }>(await api.post(`/v1/spaces/${space.id}/change-requests`, { data: { subject: 'Seed' } }))
  await json(
    await api.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      data: { changes: [{ operation: 'insert_page', title: pageTitle, document: { markdown: 'Run the installer.' } }] }
    })
  )
  expect((await json<{ result: string }>(await api.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`))).result).toBe('merge')
  const pages = await json<{ pages: { id: string; title: string }[] }>(await api.get(`/v1/spaces/${space.id}/content/pages`))
  const page = pages.pages.find((p) => p.title === pageTitle)!
  return { spaceId: space.id, pageId: page.id, pageTitle }
}

test('comment, reply, react, resolve and reopen', async ({ page, token, api }, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId, pageId, pageTitle } = await arrangeSpace(api, suffix)
  const me = await json<{ id: string }>(await api.get('/v1/user'))
  const text = `Step 3 needs a screenshot ${suffix}`
  const replyText = `Added one in the next revision ${suffix}`
  const comments = new CommentsPage(page)

  await comments.openSpaceComments(token, spaceId)
  await expect(comments.empty).toContainText('No open comments')

  // Comment on a page, with markdown.
  await comments.post(`**${text}**`, { page: pageTitle, shows: text })
  const thread = comments.thread(text)
  await expect(thread.getByTestId('comment-body').locator('strong')).toHaveText(text)
  await expect(thread.getByTestId('comment-target')).toHaveText(pageTitle)
  await expect(comments.count).toHaveText('1 open comment')
  // The space header's counter follows (it and the tab's own count both say so).
  await expect(page.getByText(/^1 open comments?$/)).toHaveCount(2)

  // Reply.
  await comments.reply(thread, replyText)
  await expect(thread.getByTestId('reply')).toHaveCount(1)
  await expect(thread.getByTestId('reply')).toContainText(replyText)
  await expect(thread.getByTestId('replies-toggle')).toHaveText('Hide replies')

  // The picker offers reactions (the quick ones first), not space icons.
  await thread.getByTestId('add-reaction').first().click()
  const picker = page.getByTestId('reaction-picker')
  const quick = picker.getByRole('group', { name: 'Quick reactions' }).getByTestId('reaction-option')
  await expect(quick).toHaveText(['👍', '👎', '😄', '🎉', '😕', '❤️', '🚀', '👀'])
  await expect(picker.getByText('📘')).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(picker).toBeHidden()

  // React by searching "rocket": the chip shows 🚀 1 and is highlighted as mine.
  await comments.react(thread, 'rocket')
  const chip = comments.reaction(thread, '🚀')
  await expect(chip.getByTestId('reaction-count')).toHaveText('1')
  await expect(chip).toHaveAttribute('aria-pressed', 'true')
  await expect(chip).toHaveAttribute('data-mine', 'true')

  // Resolve: it leaves the Open list and shows under Resolved.
  await comments.resolve(thread)
  await expect(comments.threads).toHaveCount(0)
  await expect(comments.empty).toContainText('No open comments')
  await comments.showStatus('Resolved')
  await expect(comments.thread(text)).toBeVisible()
  await expect(comments.thread(text).getByTestId('comment-resolved')).toBeVisible()
  const resolved = await json<Listed<ApiComment>>(await api.get(`/v1/spaces/${spaceId}/comments?status=resolved`))
  expect(resolved.items.map((c) => c.status)).toEqual(['resolved'])

  // Reopen: back under Open.
  await comments.reopen(comments.thread(text))
  await expect(comments.threads).toHaveCount(0)
  await comments.showStatus('Open')
  await expect(comments.thread(text)).toBeVisible()
  await expect(comments.thread(text).getByTestId('comment-resolved')).toHaveCount(0)

  // Read the effects back through the API.
  const open = await json<Listed<ApiComment>>(await api.get(`/v1/spaces/${spaceId}/comments?status=open`))
  expect(open.count).toBe(1)
  const [comment] = open.items
  expect(comment).toMatchObject({ replies: 1, body: { markdown: `**${text}**` }, target: { page: { id: pageId } } })
  expect(comment!.status).toBe('open')
  expect(comment!.reactions).toMatchObject([{ emoji: '🚀', count: 1, users: [{ user: { id: me.id } }] }])
  const replies = await json<Listed<{ body: { markdown: string } }>>(await api.get(`/v1/spaces/${spaceId}/comments/${comment!.id}/replies`))
  expect(replies.items.map((r) => r.body.markdown)).toEqual([replyText])
  expect((await json<{ comments: number }>(await api.get(`/v1/spaces/${spaceId}`))).comments).toBe(1)

  await comments.screenshot('comments-after-reopen', testInfo)
})

test('a reply the API refuses is explained beside the reply box', async ({ page, token, api }, testInfo) => {
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await arrangeSpace(api, suffix)
  const text = `Is this page still current? ${suffix}`
  const posted = await json<ApiComment>(await api.post(`/v1/spaces/${spaceId}/comments`, { data: { body: { markdown: text } } }))
  const comments = new CommentsPage(page)

  await comments.openSpaceComments(token, spaceId)
  // An empty comment cannot be sent at all.
  await expect(comments.composerSubmit).toBeDisabled()

  // A reply longer than the API's 100 000 characters: the API's rule shows under the reply box, text kept.
  const thread = comments.thread(text)
  await thread.getByTestId('comment-reply').click()
  const input = thread.getByTestId('reply-composer-input')
  await input.fill('x'.repeat(100_001))
  await thread.getByTestId('reply-composer-submit').click()
  await expect(thread.getByTestId('reply-composer-error')).toHaveText('Reply must be at most 100000 characters')
  await expect(input).toHaveAttribute('aria-invalid', 'true')
  await expect(input).toHaveValue(/^x{100001}$/)
  await expect(comments.errorToasts).toHaveCount(0)

  // Nothing was written.
  const replies = await json<Listed<unknown>>(await api.get(`/v1/spaces/${spaceId}/comments/${posted.id}/replies`))
  expect(replies.count).toBe(0)

  await comments.screenshot('comments-refused-reply', testInfo)
})

test('a comment on a selected passage: shown beside it in the editor, outdated once the text changes', async ({
  page,
  token,
  api
}, testInfo) => {
  test.setTimeout(90_000)
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const passage = `Run the installer as root ${suffix}.`
  const { spaceId, pages } = await spaceWithPages(
    api,
    `Passages ${suffix}`,
    ['Setup'],
    () => `# Install\n\n${passage}\n\nThen restart the service.\n`
  )
  const pageId = pages[0]!.id
  const editor = new EditorPage(page)
  const comments = new CommentsPage(page)
  await editor.open(token, `/spaces/${spaceId}/pages/${pageId}`)
  await editor.waitUntilReady()

  // Select the passage's line in the editor: a "Comment" button shows over the selection.
  await editor.markdown.locator('.cm-line', { hasText: passage }).click()
  await page.keyboard.press('Home')
  await page.keyboard.press('Shift+End')
  await page.getByRole('button', { name: 'Comment on the selection' }).click()

  // The panel opens with the passage above its composer; the comment is posted on it.
  await expect(page.getByTestId('passage-draft')).toHaveText(passage)
  await expect(comments.composerInput).toBeFocused()
  const text = `Not as root, please ${suffix}`
  await comments.composerInput.fill(text)
  await comments.composerInput.press('Control+Enter')
  const thread = comments.thread(text)
  await expect(thread.getByTestId('comment-passage')).toHaveText(passage)
  await expect(page.getByTestId('passage-draft')).toHaveCount(0)
  const listed = await json<Listed<ApiComment & { target: { node?: { id: string; preview?: string } } }>>(
    await api.get(`/v1/spaces/${spaceId}/comments?targetPage=${pageId}`)
  )
  expect(listed.items.map((c) => c.target.node)).toEqual([{ id: 'passage:install:0', preview: passage }])

  // Beside the passage: its text is marked in the editor; a click there points at the thread.
  const mark = editor.markdown.locator('.cm-passageComment')
  await expect(mark).toHaveText(passage)
  await mark.click()
  await expect(thread).toHaveAttribute('data-focused', 'true')
  await expect(thread.getByTestId('passage-outdated')).toHaveCount(0)
  await editor.screenshots('passage-comment', testInfo)

  // The passage changes on main: the thread says it is outdated and nothing is marked.
  const cr = await json<{ number: number }>(await api.post(`/v1/spaces/${spaceId}/change-requests`, { data: { subject: 'Reword' } }))
  const reworded = `# Install\n\nRun the installer as an ordinary user ${suffix}.\n\nThen restart the service.\n`
  await json(
    await api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, {
      data: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: reworded } }] }
    })
  )
  await json(await api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`))
  await page.reload()
  await editor.waitUntilReady()
  await expect(editor.markdown).toContainText('as an ordinary user')
  await expect(comments.thread(text).getByTestId('passage-outdated')).toBeVisible()
  await expect(editor.markdown.locator('.cm-passageComment')).toHaveCount(0)
})

test('@ in the composer offers members and posts a mention, drawn as a chip', async ({ page, token, api }, testInfo) => {
  const suffix = `${testInfo.testId.slice(0, 6)}${testInfo.retry || ''}`
  const { spaceId } = await arrangeSpace(api, suffix)
  const me = await json<{ id: string; displayName: string }>(await api.get('/v1/user'))
  const comments = new CommentsPage(page)
  await comments.openSpaceComments(token, spaceId)

  await comments.composerInput.pressSequentially(`Can you check this ${suffix}, @${me.displayName.slice(0, 3)}`)
  const option = page.getByRole('listbox', { name: 'Mention a member' }).getByRole('option', { name: me.displayName })
  await expect(option).toBeVisible()
  await comments.composerInput.press('Enter')
  await expect(comments.composerInput).toHaveValue(`Can you check this ${suffix}, [@${me.displayName}](mention:${me.id}) `)
  await comments.composerInput.pressSequentially('thanks')
  await comments.composerInput.press('Control+Enter')

  const thread = comments.thread(`Can you check this ${suffix}`)
  const chip = thread.getByTestId('comment-body').locator('.mention')
  await expect(chip).toHaveText(`@${me.displayName}`)
  await expect(chip).toHaveAttribute('data-user-id', me.id)
  const listed = await json<Listed<ApiComment>>(await api.get(`/v1/spaces/${spaceId}/comments`))
  expect(listed.items[0]!.body.markdown).toBe(`Can you check this ${suffix}, [@${me.displayName}](mention:${me.id}) thanks`)
})
