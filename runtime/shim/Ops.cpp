#include "Ops.h"

#include <ATen/detail/CUDAHooksInterface.h>

#include <cstring>

namespace torchtidy_rt {

OpClass classify(const char *Name) {
  if (std::strncmp(Name, "aten::", 6) == 0) {
    const char *N = Name + 6;
    switch (N[0]) {
    case 't':
      if (std::strcmp(N, "to") == 0)
        return OpClass::To;
      break;
    case '_':
      if (std::strcmp(N, "_to_copy") == 0)
        return OpClass::ToCopy;
      if (std::strcmp(N, "_local_scalar_dense") == 0)
        return OpClass::LocalScalar;
      break;
    case 'c':
      if (std::strcmp(N, "copy_") == 0)
        return OpClass::Copy;
      break;
    case 'i':
      if (std::strcmp(N, "item") == 0)
        return OpClass::Item;
      break;
    case 'a':
      if (std::strcmp(N, "add_") == 0)
        return OpClass::AddInPlace;
      break;
    case 'z':
      if (std::strcmp(N, "zero_") == 0)
        return OpClass::Zero;
      break;
    }
    return OpClass::None;
  }
  if (std::strcmp(Name, "torch::autograd::AccumulateGrad") == 0)
    return OpClass::Accumulate;
  // torch::nn::parallel's autograd functions (Scatter, Gather) and the
  // replicate/broadcast work of data_parallel.
  if (std::strstr(Name, "Scatter") || std::strstr(Name, "Gather") || std::strstr(Name, "Broadcast") ||
      std::strstr(Name, "broadcast") || std::strstr(Name, "replicate"))
    return OpClass::DataParallel;
  return OpClass::None;
}

std::string deviceName(const c10::Device &D) {
  std::string S = c10::DeviceTypeName(D.type(), /*lower_case=*/true);
  if (D.has_index())
    S += ":" + std::to_string(D.index());
  return S;
}

static bool readBool(c10::ArrayRef<const c10::IValue> In, size_t I, bool Default) {
  if (I < In.size() && In[I].isBool())
    return In[I].toBool();
  return Default;
}

// cuda:0 and cuda (the current device) are taken for the same device.
static bool sameDevice(const c10::Device &A, const c10::Device &B) {
  return A.type() == B.type() && (!A.has_index() || !B.has_index() || A.index() == B.index());
}

bool readTransfer(OpClass C, c10::ArrayRef<const c10::IValue> In, EventAttrs &A) {
  if (In.empty() || !In[0].isTensor())
    return false;
  const at::Tensor &Self = In[0].toTensor();
  if (!Self.defined())
    return false;
  c10::Device Src = Self.device(), Dst = Self.device();
  size_t NonBlockingAt = 2;
  if (C == OpClass::Copy) { // copy_(self, src, non_blocking)
    Dst = Self.device();
    if (In.size() > 1 && In[1].isTensor() && In[1].toTensor().defined())
      Src = In[1].toTensor().device();
    NonBlockingAt = 2;
  } else if (C == OpClass::ToCopy) { // _to_copy(self, dtype?, layout?, device?, pin_memory?, non_blocking, mf?)
    if (In.size() > 3 && In[3].isDevice())
      Dst = In[3].toDevice();
    NonBlockingAt = 5;
  } else { // aten::to, four overloads
    if (In.size() == 8) { // to.dtype_layout
      if (In[3].isDevice())
        Dst = In[3].toDevice();
      NonBlockingAt = 5;
    } else if (In.size() > 1 && In[1].isDevice()) { // to.device
      Dst = In[1].toDevice();
      NonBlockingAt = 3;
    } else if (In.size() > 1 && In[1].isTensor()) { // to.other
      if (In[1].toTensor().defined())
        Dst = In[1].toTensor().device();
    } // to.dtype: same device
  }
  if (sameDevice(Src, Dst))
    return false;
  const at::Tensor &SrcT = (C == OpClass::Copy && In.size() > 1 && In[1].isTensor()) ? In[1].toTensor() : Self;
  A.Src = deviceName(Src);
  A.Dst = deviceName(Dst);
  A.NonBlocking = readBool(In, NonBlockingAt, false) ? 1 : 0;
  if (Src.is_cpu() && !Dst.is_cpu() && SrcT.defined() && SrcT.has_storage()) {
    // Pinned or pageable: asked of the CUDA hooks (the driver's pointer
    // attributes in a CUDA build), not through the dispatcher.
    A.Pinned = at::detail::getCUDAHooks().isPinnedPtr(SrcT.data_ptr()) ? 1 : 0;
    A.Blocking = !(A.NonBlocking == 1 && A.Pinned == 1);
  } else if (!Src.is_cpu() && Dst.is_cpu()) {
    A.Blocking = A.NonBlocking != 1;
  }
  return true;
}

} // namespace torchtidy_rt
