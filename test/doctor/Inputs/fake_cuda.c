/* A test double of the CUDA driver library (libcuda.so.1): the entry points
 * torchtidy doctor loads with dlsym, with the same names and C ABI, whose
 * answers come from environment variables:
 *   FAKE_CUDA_INIT_ERROR      cuInit's result (default 0 = CUDA_SUCCESS)
 *   FAKE_CUDA_DEVICES         device count (default 1; 0 makes cuInit return
 *                             CUDA_ERROR_NO_DEVICE, as the real driver does)
 *   FAKE_CUDA_DRIVER_VERSION  cuDriverGetVersion (default 13000)
 *   FAKE_CUDA_COMPUTE_MODE    CU_DEVICE_ATTRIBUTE_COMPUTE_MODE (default 0)
 *   FAKE_CUDA_PEER            cuDeviceCanAccessPeer (default 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int env(const char *Name, int Default) {
  const char *V = getenv(Name);
  return V && *V ? atoi(V) : Default;
}

static int Initialised;

int cuInit(unsigned Flags) {
  (void)Flags;
  int E = env("FAKE_CUDA_INIT_ERROR", 0);
  if (E)
    return E;
  if (env("FAKE_CUDA_DEVICES", 1) == 0)
    return 100; /* CUDA_ERROR_NO_DEVICE */
  Initialised = 1;
  return 0;
}

int cuDriverGetVersion(int *V) {
  *V = env("FAKE_CUDA_DRIVER_VERSION", 13000);
  return 0;
}

int cuDeviceGetCount(int *N) {
  if (!Initialised)
    return 3; /* CUDA_ERROR_NOT_INITIALIZED */
  *N = env("FAKE_CUDA_DEVICES", 1);
  return 0;
}

int cuDeviceGet(int *D, int Ordinal) {
  if (Ordinal < 0 || Ordinal >= env("FAKE_CUDA_DEVICES", 1))
    return 101; /* CUDA_ERROR_INVALID_DEVICE */
  *D = Ordinal;
  return 0;
}

int cuDeviceGetName(char *Name, int Len, int D) {
  snprintf(Name, (size_t)Len, "Fake GPU %d", D);
  return 0;
}

typedef struct { char Bytes[16]; } CUuuid;
int cuDeviceGetUuid_v2(CUuuid *U, int D) {
  for (int I = 0; I < 16; ++I)
    U->Bytes[I] = (char)(0x10 * (D + 1) + I);
  return 0;
}

int cuDeviceGetAttribute(int *V, int Attr, int D) {
  (void)D;
  switch (Attr) {
  case 20: *V = env("FAKE_CUDA_COMPUTE_MODE", 0); return 0;
  case 75: *V = 9; return 0;
  case 76: *V = 0; return 0;
  default: *V = 0; return 0;
  }
}

int cuDeviceTotalMem_v2(size_t *Bytes, int D) {
  (void)D;
  *Bytes = (size_t)80 << 30;
  return 0;
}

int cuDeviceCanAccessPeer(int *Can, int A, int B) {
  (void)A;
  (void)B;
  *Can = env("FAKE_CUDA_PEER", 1);
  return 0;
}

int cuGetErrorName(int E, const char **Name) {
  switch (E) {
  case 0: *Name = "CUDA_SUCCESS"; return 0;
  case 3: *Name = "CUDA_ERROR_NOT_INITIALIZED"; return 0;
  case 100: *Name = "CUDA_ERROR_NO_DEVICE"; return 0;
  case 803: *Name = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"; return 0;
  case 999: *Name = "CUDA_ERROR_UNKNOWN"; return 0;
  default: *Name = 0; return 1; /* CUDA_ERROR_INVALID_VALUE, as the driver */
  }
}
