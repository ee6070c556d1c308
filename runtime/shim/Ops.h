// Which LibTorch ops the shim observes, and what a copy among them moves:
// only a copy that crosses a device boundary is a transfer (a dtype
// conversion, cat or pow on CPU tensors copies CPU to CPU and is not one).
#pragma once

#include "Trace.h"

#include <ATen/core/ivalue.h>

namespace torchtidy_rt {

enum class OpClass { None, To, ToCopy, Copy, Item, LocalScalar, AddInPlace, Zero, Accumulate, DataParallel };

// By RecordFunction name: aten::to, aten::item, torch::autograd::AccumulateGrad, ...
OpClass classify(const char *Name);

std::string deviceName(const c10::Device &D);

// Fills the source and destination devices, non_blocking, pinned and
// blocking of a copy op (To, ToCopy, Copy) from its inputs. False when the
// copy stays on one device, or its devices cannot be read: no transfer.
bool readTransfer(OpClass C, c10::ArrayRef<const c10::IValue> In, EventAttrs &A);

} // namespace torchtidy_rt
