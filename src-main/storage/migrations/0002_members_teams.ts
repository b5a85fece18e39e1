// Indexes for the members, teams and invites lists (keyset order of each filter).
export const sql = /* sql */ `
-- Members filtered by role and sorted by last-seen time.
CREATE INDEX members_org_role_seen ON members(organization_id, role, last_seen_at, seq);
-- A team's members in keyset order.
CREATE INDEX team_members_team ON team_members(team_id, seq);
-- Owners of teams (the teams list's owner filter).
CREATE INDEX team_members_owner ON team_members(user_id, role, team_id);
`
