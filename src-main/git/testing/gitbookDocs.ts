// Test-only: a small repository in the hosted service's Git format, whose page uses GitBook's block tags (a hint,
// tabs, an include of a reusable content). The PDF test and the editor's end-to-end test both import it.
import { bareRepo } from './repos'

/** The page `guide/setup.md`: a warning hint, tabs for two systems, and the include of `support.md`. */
export const SETUP_PAGE = [
  '# Setup',
  '{% hint style="warning" %}',
  'Back up your data first.',
  '{% endhint %}',
  '{% tabs %}',
  '{% tab title="macOS" %}',
  'Open the disk image.',
  '{% endtab %}',
  '{% tab title="Linux" %}',
  'Unpack the archive.',
  '{% endtab %}',
  '{% endtabs %}',
  '{% include "../.gitbook/includes/support.md" %}'
]

/** A bare repository with a home page, the setup page (plus `extraLines`) and the reusable content `support`. */
export function gitbookDocsRepo(support: string, extraLines: string[] = []): Promise<string> {
  return bareRepo({
    'README.md': '# Home\n',
    'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Setup](guide/setup.md)\n',
    'guide/setup.md': [...SETUP_PAGE, ...extraLines].join('\n'),
    '.gitbook/includes/support.md': support
  })
}
