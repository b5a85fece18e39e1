// Mantine components that navigate with the router (typed `to`/`params`, preloading, active state).
import { forwardRef } from 'react'
import { Anchor, Button, NavLink, type AnchorProps, type ButtonProps, type NavLinkProps } from '@mantine/core'
import { createLink, type LinkComponent } from '@tanstack/react-router'

const NavLinkAnchor = forwardRef<HTMLAnchorElement, NavLinkProps & { href?: string }>((props, ref) => (
  <NavLink ref={ref} component="a" {...props} />
))
const CreatedNavLink = createLink(NavLinkAnchor)
/** A sidebar entry; `active` follows the current route. */
export const RouterNavLink: LinkComponent<typeof NavLinkAnchor> = (props) => (
  <CreatedNavLink preload="intent" activeProps={{ active: true }} {...props} />
)

// onClick runs before the router's own (a dialog closes as its link navigates).
const PlainAnchor = forwardRef<
  HTMLAnchorElement,
  AnchorProps & { href?: string; children?: React.ReactNode; onClick?: React.MouseEventHandler<HTMLAnchorElement> }
>((props, ref) => <Anchor ref={ref} {...props} />)
const CreatedAnchor = createLink(PlainAnchor)
export const RouterAnchor: LinkComponent<typeof PlainAnchor> = (props) => <CreatedAnchor preload="intent" {...props} />

const PlainButton = forwardRef<HTMLAnchorElement, ButtonProps & { href?: string; children?: React.ReactNode }>((props, ref) => (
  <Button ref={ref} component="a" {...props} />
))
const CreatedButton = createLink(PlainButton)
/** A link that looks like a button (it navigates, so it is a link to assistive technology). */
export const RouterButton: LinkComponent<typeof PlainButton> = (props) => <CreatedButton preload="intent" {...props} />
