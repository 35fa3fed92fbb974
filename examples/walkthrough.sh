#!/usr/bin/env bash
# The README's walkthrough, from nothing to a shared resource: `bash examples/walkthrough.sh`.
# Runs the README's two walkthrough blocks as they are (the parts between the markers below), and
# stops at the first failure, saying where. Safe to run again: it reuses a server that already
# answers, the developer, the app and the test users. Honours PORT, GATEHOUSE_URL and DATA_DIR.
# Pasting the blocks into a shell instead leaves their variables there for the README's later sections.
set -euo pipefail
trap 'echo "walkthrough: line $LINENO failed: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
for tool in curl jq node; do command -v "$tool" >/dev/null || { echo "walkthrough: needs $tool" >&2; exit 1; }; done

# >>> helpers (the README shows this part)
# The server and the CLI agree on one address: GATEHOUSE_URL from PORT, or PORT from GATEHOUSE_URL.
if [[ -z "${GATEHOUSE_URL:-}" ]]; then GATEHOUSE_URL="http://127.0.0.1:${PORT:-4000}"; fi
if [[ -z "${PORT:-}" && "$GATEHOUSE_URL" =~ :([0-9]+)/?$ ]]; then PORT="${BASH_REMATCH[1]}"; fi
export GATEHOUSE_URL="${GATEHOUSE_URL%/}" PORT="${PORT:-4000}" DATA_DIR="${DATA_DIR:-./data}"
gatehouse() { node bin/gatehouse.mjs "$@"; }

# api METHOD PATH TOKEN [JSON]: prints the response body; an HTTP error prints it on stderr and fails.
api() {
  local out code
  out=$(curl -sS -X "$1" "$GATEHOUSE_URL$2" -H "authorization: Bearer $3" -H 'content-type: application/json' \
    ${4:+-d "$4"} -w '\n%{http_code}') || return
  code=${out##*$'\n'}
  out=${out%$'\n'*}
  if ((code >= 400)); then echo "$1 $2 answered $code: $out" >&2; return 1; fi
  printf '%s\n' "$out"
}
# <<< helpers

# >>> walkthrough (the README shows this part)
# 0. Start the server unless one already answers. `node` directly rather than `npm start`, so the
#    pid is the server's own and `kill <pid>` stops it (closing the database and its lock).
GATEHOUSE_PID=
if ! curl -fsS "$GATEHOUSE_URL/healthz" >/dev/null 2>&1; then
  nohup node bin/gatehouse.mjs serve </dev/null >>gatehouse.log 2>&1 &
  GATEHOUSE_PID=$!
  for attempt in $(seq 1 360); do # a new data directory takes a while to initialise: wait up to 3 minutes
    curl -fsS "$GATEHOUSE_URL/healthz" >/dev/null 2>&1 && break
    kill -0 "$GATEHOUSE_PID" 2>/dev/null || break
    sleep 0.5
  done
  curl -fsS "$GATEHOUSE_URL/healthz" >/dev/null || { echo "The server did not start; gatehouse.log says:" >&2; tail -n 5 gatehouse.log >&2; false; }
fi

# 1. A developer token (the same developer every time), made where the server reads it (it says where).
GATEHOUSE_DEV_TOKEN=$(gatehouse dev-token create --developer you@example.com)
export GATEHOUSE_DEV_TOKEN

# 2. The app "Demo" (created once, found by name afterwards); deploy the team schema to dev.
APP=$(gatehouse apps list --json | jq -r '[.apps[] | select(.name == "Demo")][0].id // empty')
if [[ -z "$APP" ]]; then
  APP=$(gatehouse apps create Demo --origin https://demo.example.com --json | jq -r .id)
fi
gatehouse deploy examples/team-schema.ts --app "$APP" --env dev --create-env

# 3. Two test users (tokens only, like an e2e test would; the same name is the same user).
ALICE=$(gatehouse test-session --app "$APP" --user alice)
BOB=$(gatehouse test-session --app "$APP" --user bob)
BOB_ID="test:$APP:bob"

# 4. Alice creates a team and invites Bob; Bob sees the invite and accepts; list the members.
TEAM=$(api POST /v1/resources "$ALICE" '{"type":"team","name":"Core team"}' | jq -r .id)
api POST "/v1/resources/$TEAM/invite" "$ALICE" "{\"userId\":\"$BOB_ID\",\"role\":\"writer\"}" | jq -c
api GET /v1/resources/invitations "$BOB" | jq -c
api POST "/v1/resources/$TEAM/accept" "$BOB" | jq -c

# 5. The same read over GraphQL, then the member list over REST.
api POST /graphql "$BOB" "$(jq -nc --arg id "$TEAM" '{query: "query($id: ID!) { resource(id: $id) { name memberCount currentMember { role state } } members(resourceId: $id) { userId role state kind } }", variables: {id: $id}}')" | jq -c
api GET "/v1/resources/$TEAM/members" "$ALICE" | jq

# Which server to stop: the one started above, else the one that was already running.
if [[ -n "$GATEHOUSE_PID" ]]; then
  echo "Gatehouse keeps running at $GATEHOUSE_URL (log: gatehouse.log). Stop it with: kill $GATEHOUSE_PID"
else
  running=$(jq -r --arg url "$GATEHOUSE_URL" 'select(.url == $url) | .pid' "$DATA_DIR/gatehouse.lock" 2>/dev/null || true)
  echo "Gatehouse was already running at $GATEHOUSE_URL (not started here).${running:+ Stop it with: kill $running}"
fi
# <<< walkthrough
