#!/usr/bin/env bash
# Generates a migration from the committed schema plus the named schema files only, then commits
# those files and the migration together, under a lock. Several engineers (or helpers) sharing one
# checkout can change different schema files at once: each migration holds only its own change and
# the journal never gets two entries with the same number.
#
#   scripts/db-generate.sh <migration_name> "<commit message>" <schema file>... 
#   CUSTOM_SQL=path/to.sql scripts/db-generate.sh <migration_name> "<commit message>" [<schema file>...]
#
# With CUSTOM_SQL the migration is a hand-written one (drizzle-kit generate --custom) whose SQL is
# that file's content (extensions, functions, anything drizzle-kit does not generate).
set -euo pipefail
name=$1
message=$2
shift 2
root=$(git rev-parse --show-toplevel)
cd "$root"

exec 9>/tmp/enmusubi-git.lock
flock 9

tmp=$root/packages/db/.generate-tmp
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
git archive HEAD packages/db/src/schema drizzle | tar -x -C "$tmp"
for file in "$@"; do
  cp "$root/$file" "$tmp/$file"
done
cat >"$tmp/drizzle.config.ts" <<'EOF'
import { defineConfig } from "drizzle-kit";
export default defineConfig({ dialect: "postgresql", schema: "./packages/db/src/schema/index.ts", out: "./drizzle" });
EOF

extra=()
if [[ -n ${CUSTOM_SQL:-} ]]; then extra=(--custom); fi
(cd "$tmp" && "$root/packages/db/node_modules/.bin/drizzle-kit" generate --config drizzle.config.ts --name "$name" "${extra[@]}")

created=()
while IFS= read -r path; do
  [[ -e "$root/drizzle/$path" ]] || created+=("drizzle/$path")
done < <(cd "$tmp/drizzle" && find . -type f | sed 's|^\./||')
if [[ ${#created[@]} -eq 0 ]]; then
  echo "db-generate: no schema change found in: $*" >&2
  exit 1
fi
for path in "${created[@]}"; do
  cp "$tmp/$path" "$root/$path"
done
cp "$tmp/drizzle/meta/_journal.json" "$root/drizzle/meta/_journal.json"
if [[ -n ${CUSTOM_SQL:-} ]]; then
  for path in "${created[@]}"; do
    if [[ $path == *.sql ]]; then cp "$CUSTOM_SQL" "$root/$path"; fi
  done
fi

git add -- "$@" "${created[@]}" drizzle/meta/_journal.json
git commit -m "$message" -- "$@" "${created[@]}" drizzle/meta/_journal.json
echo "db-generate: committed ${created[*]}"
