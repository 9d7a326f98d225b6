// Derives a tree shape (electron/shared/model/tree-shape.ts) from a release tarball's listing and
// writes it to assets/workloads/ID.tree-shape.json. How the shipped shape was made (Debian 12):
//
//   d=$(mktemp -d) && cd "$d" && apt-get download linux-source-6.1 && dpkg-deb -x linux-source-6.1_*_all.deb x
//   tar tvf x/usr/src/linux-source-6.1.tar.xz > listing.txt
//   node scripts/derive-tree-shape.ts listing.txt linux-6.1.192 \
//     "Linux 6.1.192 as Debian 12 ships it: package linux-source-6.1 6.1.192-3, /usr/src/linux-source-6.1.tar.xz"
//   npm run gen:tree-shape
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deriveTreeShape } from '../electron/shared/model/tree-shape.ts';

const [listing, id, release] = process.argv.slice(2);
if (!listing || !id || !release) {
  console.error('usage: node scripts/derive-tree-shape.ts LISTING.txt ID "RELEASE, NAMED"  (LISTING: the output of `tar tvf`)');
  process.exit(2);
}
const shape = deriveTreeShape(readFileSync(listing, 'utf8'), release, id);
const path = fileURLToPath(new URL(`../assets/workloads/${id}.tree-shape.json`, import.meta.url));
writeFileSync(path, JSON.stringify(shape, null, 2) + '\n');
console.log(`wrote ${path}: ${shape.files} files, ${shape.bytes} bytes, ${shape.dirs} folders, ${shape.depths.length} depths`);
