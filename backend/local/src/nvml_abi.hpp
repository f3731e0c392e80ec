// The slice of the NVML C ABI trainyard uses, declared here so the build needs no NVML headers.
// Layouts and values follow nvml.h (R470…R550); only append-compatible parts are used.
#pragma once

#include <cstdint>

namespace trainyard::nvml {

using Return = int;  // nvmlReturn_t is a C enum: int-sized on every ABI we target
inline constexpr Return kSuccess = 0;
inline constexpr Return kErrorNotSupported = 3;
inline constexpr Return kErrorInsufficientSize = 7;
inline constexpr Return kErrorDriverNotLoaded = 9;
inline constexpr Return kErrorLibraryNotFound = 12;
inline constexpr Return kErrorFunctionNotFound = 13;

struct DeviceSt;
using Device = DeviceSt*;  // nvmlDevice_t: an opaque pointer

struct Utilization {  // nvmlUtilization_t
  unsigned int gpu;
  unsigned int memory;
};

struct Memory {  // nvmlMemory_t
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct MemoryV2 {  // nvmlMemory_v2_t; `version` must be set before the call
  unsigned int version;
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
};
// NVML_STRUCT_VERSION(Memory, 2): size in the low bits, version number in the top byte.
inline constexpr unsigned int kMemoryV2Version =
    static_cast<unsigned int>(sizeof(MemoryV2)) | (2u << 24);

struct ProcessInfoV1 {  // nvmlProcessInfo_v1_t: what the plain GetComputeRunningProcesses fills
  unsigned int pid;
  unsigned long long usedGpuMemory;
};

struct ProcessInfoV2 {  // nvmlProcessInfo_v2_t (= nvmlProcessInfo_t): used by `_v2` and `_v3`
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};

static_assert(sizeof(Memory) == 24 && sizeof(MemoryV2) == 40);
static_assert(sizeof(ProcessInfoV1) == 16 && sizeof(ProcessInfoV2) == 24);

// NVML_VALUE_NOT_AVAILABLE: what usedGpuMemory holds when the driver withholds it (other users'
// processes without privileges, Windows WDDM).
inline constexpr unsigned long long kValueNotAvailable = ~0ULL;
inline constexpr unsigned int kTemperatureGpu = 0;   // NVML_TEMPERATURE_GPU
inline constexpr unsigned int kNameBufferSize = 96;  // NVML_DEVICE_NAME_V2_BUFFER_SIZE
inline constexpr unsigned int kUuidBufferSize = 96;  // NVML_DEVICE_UUID_V2_BUFFER_SIZE

using InitFn = Return (*)();
using ShutdownFn = Return (*)();
using ErrorStringFn = const char* (*)(Return);
using GetCountFn = Return (*)(unsigned int*);
using GetHandleFn = Return (*)(unsigned int, Device*);
using GetStringFn = Return (*)(Device, char*, unsigned int);
using GetUtilizationFn = Return (*)(Device, Utilization*);
using GetMemoryFn = Return (*)(Device, Memory*);
using GetMemoryV2Fn = Return (*)(Device, MemoryV2*);
using GetTemperatureFn = Return (*)(Device, unsigned int, unsigned int*);
using GetUintFn = Return (*)(Device, unsigned int*);
using GetProcessesV1Fn = Return (*)(Device, unsigned int*, ProcessInfoV1*);
using GetProcessesV2Fn = Return (*)(Device, unsigned int*, ProcessInfoV2*);

}  // namespace trainyard::nvml
