// electron-vite replaces `import.meta.env.DEV` at build time: true under `electron-vite dev`, false in a build.
interface ImportMetaEnv {
  readonly DEV?: boolean
}
interface ImportMeta {
  readonly env?: ImportMetaEnv
}
