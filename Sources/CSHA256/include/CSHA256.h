#ifndef LIFESPEC_CSHA256_H
#define LIFESPEC_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has the x86 SHA extensions (SHA-NI) lifespec_sha256_blocks uses.
int lifespec_sha256_accelerated(void);

/// Compresses `blocks` consecutive 64-byte blocks of `data` into the eight SHA-256 state words
/// `state` (FIPS 180-4) with the SHA extensions. Only call it when lifespec_sha256_accelerated().
void lifespec_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

/// The same compression in portable C, for any CPU.
void lifespec_sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
