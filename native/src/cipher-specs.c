#include "cipher.h"

// The ciphers dm-crypt offers that matter for a disk: cryptsetup's default (aes-xts-plain64,
// 512-bit key since 2.0; 256 for LUKS1-era volumes), the old CBC-ESSIV default, the AES
// finalists' XTS modes, and Adiantum for CPUs without AES instructions.
const cipher_spec_t CIPHER_SPECS[] = {
    {.dm_name = "aes-xts-plain64", .key_bits = 256, .kernel_name = "xts(aes)", .iv_bytes = 16, .openssl_name = "aes-128-xts"},
    {.dm_name = "aes-xts-plain64", .key_bits = 512, .kernel_name = "xts(aes)", .iv_bytes = 16, .openssl_name = "aes-256-xts"},
    {.dm_name = "aes-cbc-essiv:sha256", .key_bits = 256, .kernel_name = "essiv(cbc(aes),sha256)", .iv_bytes = 16,
     .openssl_name = "aes-256-cbc", .essiv = 1},
    {.dm_name = "serpent-xts-plain64", .key_bits = 512, .kernel_name = "xts(serpent)", .iv_bytes = 16},
    {.dm_name = "twofish-xts-plain64", .key_bits = 512, .kernel_name = "xts(twofish)", .iv_bytes = 16},
    {.dm_name = "xchacha12,aes-adiantum-plain64", .key_bits = 256, .kernel_name = "adiantum(xchacha12,aes)", .iv_bytes = 32},
    {.dm_name = "xchacha20,aes-adiantum-plain64", .key_bits = 256, .kernel_name = "adiantum(xchacha20,aes)", .iv_bytes = 32},
};
const unsigned CIPHER_SPEC_COUNT = sizeof CIPHER_SPECS / sizeof CIPHER_SPECS[0];
