import { expect, type Locator, type Page } from '@playwright/test'
import { AppShell } from './appShell.ts'

export type CommentStatus = 'Open' | 'Resolved' | 'All'

/** A space's Comments tab (and the comments side panel, which has the same threads and composer). */
export class CommentsPage extends AppShell {
  readonly tab: Locator
  readonly composer: Locator
  readonly composerInput: Locator
  readonly composerSubmit: Locator
  readonly composerPage: Locator
  readonly threads: Locator
  readonly empty: Locator
  readonly count: Locator
  readonly status: Locator

  constructor(page: Page) {
    super(page)
    this.tab = page.getByTestId('tab-comments')
    this.composer = page.getByTestId('comment-composer')
    this.composerInput = page.getByTestId('comment-composer-input')
    this.composerSubmit = page.getByTestId('comment-composer-submit')
    this.composerPage = page.getByTestId('composer-page')
    this.threads = page.getByTestId('comment-thread')
    this.empty = page.getByTestId('comments-empty')
    this.count = page.getByTestId('comments-count')
    this.status = page.getByTestId('comments-status')
  }

  /**
   * Opens the space's Comments tab at its address (`#/spaces/{id}/comments`, as a bookmark or a link would).
   * Not through the Pages tab: that screen is another area's, and these specs should fail only for comments.
   */
  /** Opens the space (its Pages tab first, as a user lands there) and moves to the Comments tab. */
  async openSpaceComments(token: string, spaceId: string): Promise<void> {
    await this.open(token, `/spaces/${spaceId}`)
    await this.waitUntilReady()
    await this.tab.click()
    await expect(this.tab).toHaveAttribute('aria-selected', 'true')
    await expect(this.composerInput).toBeVisible()
    await this.waitUntilReady()
  }

  thread(text: string): Locator {
    return this.threads.filter({ has: this.page.getByTestId('comment-body').getByText(text) })
  }

  /** Writes a comment (optionally on a page) and posts it with Ctrl+Enter; `shows` is its rendered text. */
  async post(markdown: string, { page, shows = markdown }: { page?: string; shows?: string } = {}): Promise<void> {
    if (page) await this.choose(this.composerPage, page)
    await this.composerInput.fill(markdown)
    await this.composerInput.press('Control+Enter')
    await this.expectSuccess('Comment posted')
    await expect(this.thread(shows)).toBeVisible()
    await expect(this.composerInput).toHaveValue('')
  }

  replyComposer(thread: Locator): Locator {
    return thread.getByTestId('reply-composer')
  }

  /** Opens the thread's reply box with its Reply button and sends `text`. */
  async reply(thread: Locator, text: string): Promise<void> {
    await thread.getByTestId('comment-reply').click()
    const input = thread.getByTestId('reply-composer-input')
    await expect(input).toBeFocused()
    await input.fill(text)
    await thread.getByTestId('reply-composer-submit').click()
  }

  reaction(thread: Locator, emoji: string): Locator {
    // The thread's own chip comes before its replies' in the document.
    return thread.locator(`[data-testid="reaction"][data-emoji="${emoji}"]`).first()
  }

  /** Adds a reaction from the picker ("+"): searches it (a name like "rocket", or the emoji) and takes the first match. */
  async react(thread: Locator, search: string): Promise<void> {
    await thread.getByTestId('add-reaction').first().click()
    const picker = this.page.getByTestId('reaction-picker')
    await picker.getByRole('textbox', { name: 'Search reactions' }).fill(search)
    await picker.getByTestId('reaction-option').first().click()
    await expect(picker).toBeHidden()
  }

  async showStatus(status: CommentStatus): Promise<void> {
    await this.status.getByText(status, { exact: true }).click()
  }

  async resolve(thread: Locator): Promise<void> {
    await thread.getByTestId('comment-resolve').click()
    await this.expectSuccess('Comment resolved')
  }

  async reopen(thread: Locator): Promise<void> {
    await thread.getByTestId('comment-reopen').click()
    await this.expectSuccess('Comment reopened')
  }
}
