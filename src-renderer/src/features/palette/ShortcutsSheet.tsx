import { Fragment } from 'react'
import { Kbd, Modal, Text } from '@mantine/core'
import { keyLabels, shortcutSheet } from './commands.ts'
import classes from './CommandPalette.module.css'

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/i.test(navigator.platform)

/** One hotkey as key caps: Ctrl + Shift + P. */
export function Keys({ hotkey, size = 'sm' }: { hotkey: string; size?: 'xs' | 'sm' }) {
  return (
    <span className={classes.keys} aria-label={keyLabels(hotkey, isMac).join('+')}>
      {keyLabels(hotkey, isMac).map((label, i) => (
        <Kbd key={i} size={size}>
          {label}
        </Kbd>
      ))}
    </span>
  )
}

/** Every shortcut of the app, from the command registry (`?` or Ctrl/Cmd+/, or the palette). */
export function ShortcutsSheet({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="lg" data-testid="shortcuts-sheet">
      <div className={classes.sheet}>
        {shortcutSheet().map(({ group, commands }) => (
          <section key={group} className={classes.sheetGroup} aria-label={group}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={6}>
              {group}
            </Text>
            <dl className={classes.sheetList}>
              {commands.map((command) => (
                <Fragment key={command.id}>
                  <dt data-testid="shortcut-title">{command.title}</dt>
                  <dd className={classes.sheetKeys}>
                    {command.keys!.map((hotkey, i) => (
                      <Fragment key={hotkey}>
                        {i > 0 && <span className={classes.or}>or</span>}
                        <Keys hotkey={hotkey} size="xs" />
                      </Fragment>
                    ))}
                  </dd>
                </Fragment>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  )
}
