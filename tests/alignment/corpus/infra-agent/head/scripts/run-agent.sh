#!/usr/bin/env bash
set -euo pipefail
# Start the agent locally, the way compose does.
IMAGE="${IMAGE:-ghcr.io/acme/agent:dev}"
docker run --rm --read-only --cap-drop ALL "$IMAGE"
echo "do not add --privileged here; grant one capability instead"
# --privileged was needed by the old probe
PROBE_ID="$(docker run -d --privileged "$IMAGE" probe)"
docker logs "$PROBE_ID"
ssh deploy@staging.acme.dev <<'REMOTE'
docker run -d --privileged ghcr.io/acme/agent:dev
REMOTE
cat <<'NOTE' > /tmp/agent-notes.txt
never run the agent with --privileged on a shared host
NOTE
