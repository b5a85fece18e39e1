// Fixtures of the change request tests: a document page's layout as the wire shows it by default (written out, not
// imported from src-shared: the tests check the answer against it), and a 1×1 PNG.

export const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true
}

export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
