// GENERATED from assets/workloads/linux-6.1.192.tree-shape.json by `npm run gen:tree-shape`: do not edit.
// Linux 6.1.192 as Debian 12 ships it: package linux-source-6.1 6.1.192-3, /usr/src/linux-source-6.1.tar.xz
#ifndef DD_TREE_SHAPE_H
#define DD_TREE_SHAPE_H

#include <stdint.h>

#define TREE_SHAPE_ID "linux-6.1.192"
#define TREE_SHAPE_FILES 78579ull
#define TREE_SHAPE_BYTES 1298682509ull
#define TREE_SHAPE_DIRS 5095ull

// Per depth (path components below the root): folders, files.
typedef struct { uint32_t dirs, files; } tree_depth_t;
static const tree_depth_t TREE_DEPTHS[] = {
    {24, 14},
    {608, 1101},
    {1505, 13741},
    {1383, 24933},
    {835, 20826},
    {287, 11667},
    {233, 3047},
    {164, 2509},
    {56, 510},
    {0, 231},
};

// File sizes: bucket (max/2, max] bytes, its files and their exact byte total.
typedef struct { uint64_t max, files, bytes; } tree_size_bucket_t;
static const tree_size_bucket_t TREE_SIZES[] = {
    {0ull, 30ull, 0ull},
    {8ull, 4ull, 27ull},
    {16ull, 58ull, 725ull},
    {32ull, 139ull, 3526ull},
    {64ull, 402ull, 19828ull},
    {128ull, 986ull, 93360ull},
    {256ull, 2361ull, 458432ull},
    {512ull, 5099ull, 1944239ull},
    {1024ull, 7491ull, 5689999ull},
    {2048ull, 11019ull, 16551298ull},
    {4096ull, 12773ull, 37770235ull},
    {8192ull, 12886ull, 76104397ull},
    {16384ull, 11011ull, 128077645ull},
    {32768ull, 7654ull, 176375739ull},
    {65536ull, 4229ull, 191551600ull},
    {131072ull, 1723ull, 151640021ull},
    {262144ull, 450ull, 78482923ull},
    {524288ull, 129ull, 44497596ull},
    {1048576ull, 51ull, 38125288ull},
    {2097152ull, 44ull, 61543427ull},
    {4194304ull, 11ull, 34225224ull},
    {8388608ull, 19ull, 112837280ull},
    {16777216ull, 9ull, 118745080ull},
    {33554432ull, 1ull, 23944620ull},
};

#define TREE_DEPTH_COUNT (sizeof TREE_DEPTHS / sizeof TREE_DEPTHS[0])
#define TREE_SIZE_COUNT (sizeof TREE_SIZES / sizeof TREE_SIZES[0])

#endif
