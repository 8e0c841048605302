#!/bin/sh
# Reproduces vendor/ from the npm registry at the versions pinned in package-lock.json:
#   cd crates/explore/src/web && npm ci && npm run vendor
# The page (built into ds by crates/explore/src/web.rs) loads only these files: no network.
set -eu
cd "$(dirname "$0")"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
mkdir -p vendor
cp node_modules/cytoscape/dist/cytoscape.min.js vendor/
cp node_modules/cytoscape/LICENSE vendor/cytoscape.LICENSE
cp node_modules/cytoscape-dagre/dist/cytoscape-dagre.min.js vendor/
cp node_modules/cytoscape-dagre/LICENSE vendor/cytoscape-dagre.LICENSE
node -e '
const lock = require("./package-lock.json").packages;
for (const p of ["cytoscape", "cytoscape-dagre"]) {
  const e = lock["node_modules/" + p];
  console.log(p + " " + e.version + " " + e.license + " " + e.integrity);
}' > vendor/VERSIONS
cat vendor/VERSIONS
