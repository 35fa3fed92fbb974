/**
 * Peer: PostGraphile v5 (Amber preset, grafserv on node:http) with row-level security, on the same
 * scratch PostgreSQL database as Gatehouse and on the same data: at start it copies Gatehouse's
 * resources, memberships and resource rows into a schema `peer` of its own, whose policies say what
 * Gatehouse's rules say for these rows (a resource and its rows are read by its active members;
 * writers, admins and owners create rows). Each request runs as the role `gh_bench_peer` with
 * `jwt.claims.principal_id` from the `x-principal` header: PostGraphile is handed the caller,
 * where Gatehouse verifies a bearer token (in its favour, if anything). A pg pool of 10, as
 * Gatehouse's. Reads: `resourceByRowId`; creates: `createRow`.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { announce, main, onShutdown } from './peer-lifecycle.mjs';

const ROLE = 'gh_bench_peer';
const MEMBER = `EXISTS (SELECT 1 FROM peer.memberships m WHERE m.resource_id = %s AND m.principal_id = peer.current_principal() AND m.state = 'active'%s)`;
const member = (resource, roles = '') => MEMBER.replace('%s', resource).replace('%s', roles);
const WRITER = " AND m.role IN ('owner', 'admin', 'writer')";

const SETUP = `
DO $$ BEGIN CREATE ROLE ${ROLE} NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
DROP SCHEMA IF EXISTS peer CASCADE;
CREATE SCHEMA peer;
CREATE FUNCTION peer.current_principal() RETURNS text LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('jwt.claims.principal_id', true), '') $$;
CREATE TABLE peer.resources (id text PRIMARY KEY, type text NOT NULL, name text NOT NULL);
INSERT INTO peer.resources SELECT id, type, name FROM public.resources;
CREATE TABLE peer.memberships (
  resource_id text NOT NULL REFERENCES peer.resources ON DELETE CASCADE,
  principal_id text NOT NULL,
  role text NOT NULL,
  state text NOT NULL,
  PRIMARY KEY (resource_id, principal_id)
);
CREATE INDEX ON peer.memberships (principal_id, state);
INSERT INTO peer.memberships SELECT resource_id, principal_id, role::text, state::text FROM public.memberships;
CREATE TABLE peer.rows (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  resource_id text NOT NULL REFERENCES peer.resources ON DELETE CASCADE,
  table_name text NOT NULL,
  creator_id text NOT NULL DEFAULT peer.current_principal(),
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ON peer.rows (resource_id, table_name, created_at, id);
INSERT INTO peer.rows (id, resource_id, table_name, creator_id, data, created_at, updated_at)
  SELECT id, resource_id, table_name, coalesce(creator_id, ''), data, created_at, updated_at FROM public.rows WHERE resource_id IS NOT NULL;
ALTER TABLE peer.resources ENABLE ROW LEVEL SECURITY;
ALTER TABLE peer.memberships ENABLE ROW LEVEL SECURITY;
ALTER TABLE peer.rows ENABLE ROW LEVEL SECURITY;
CREATE POLICY members_read ON peer.resources FOR SELECT USING (${member('resources.id')});
CREATE POLICY own_memberships ON peer.memberships FOR SELECT USING (principal_id = peer.current_principal());
CREATE POLICY members_read ON peer.rows FOR SELECT USING (${member('rows.resource_id')});
CREATE POLICY writers_create ON peer.rows FOR INSERT WITH CHECK (creator_id = peer.current_principal() AND ${member('rows.resource_id', WRITER)});
CREATE POLICY writers_update ON peer.rows FOR UPDATE USING (${member('rows.resource_id', WRITER)});
CREATE POLICY writers_delete ON peer.rows FOR DELETE USING (${member('rows.resource_id', WRITER)});
GRANT USAGE ON SCHEMA peer TO ${ROLE};
GRANT SELECT ON peer.resources, peer.memberships TO ${ROLE};
GRANT SELECT, INSERT, UPDATE, DELETE ON peer.rows TO ${ROLE};
GRANT EXECUTE ON FUNCTION peer.current_principal() TO ${ROLE};
ANALYZE peer.resources; ANALYZE peer.memberships; ANALYZE peer.rows;
`;

main(async () => {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('PostGraphile runs on PostgreSQL only (DATABASE_URL)');
  const setup = new pg.Client({ connectionString });
  await setup.connect();
  await setup.query(SETUP);
  await setup.end();

  const pool = new pg.Pool({ connectionString, max: 10 });
  const preset = {
    extends: [PostGraphileAmberPreset],
    pgServices: [makePgService({ pool, schemas: ['peer'] })],
    grafserv: { graphiql: false, watch: false },
    grafast: {
      explain: false,
      context(requestContext) {
        const principal = requestContext.node?.req?.headers['x-principal'];
        return { pgSettings: { role: ROLE, 'jwt.claims.principal_id': typeof principal === 'string' ? principal : '' } };
      },
    },
  };
  const pgl = postgraphile(preset);
  const serv = pgl.createServ(grafserv);
  const server = createServer();
  await serv.addTo(server);
  server.keepAliveTimeout = 65_000;
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  onShutdown(async () => {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
    await pgl.release();
    await pool.end();
  });
  announce({ url: `http://127.0.0.1:${server.address().port}` });
});
