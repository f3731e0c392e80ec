// Internal: the emulator's own base64 and HMAC-SHA256 (OpenSSL), for judging SharedKey requests
// and signing what it hands to storage. None of the client's code: the emulator is the judge.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace trainyard::emu {

inline constexpr size_t kSha256Bytes = 32;

/// Standard base64 with padding.
std::string base64_encode(std::string_view bytes);

/// Strict, canonical base64: alphabet, length a multiple of 4, at most two '=' at the end and
/// zero padding bits, so each value has exactly one accepted spelling; none otherwise.
std::optional<std::string> base64_decode(std::string_view text);

/// HMAC-SHA256 of `text` under `key` (raw bytes).
std::array<unsigned char, kSha256Bytes> hmac_sha256(std::string_view key, std::string_view text);

}  // namespace trainyard::emu
