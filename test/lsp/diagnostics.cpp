// torchtidy lsp, scripted: diagnostics on open, after unsaved edits (debounced), after a save;
// code actions (fix-it, NOLINT); unsaved buffers never reach the disk or the result cache.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/main.cpp
// RUN: python3 %S/lsp_client.py --server '%torchtidy lsp' --root %t --db-flags '%torch_flags' %s > %t.out
// RUN: FileCheck %s -check-prefix=OPEN < %t.out
// RUN: FileCheck %s -check-prefix=EDIT < %t.out
// RUN: FileCheck %s -check-prefix=ACT < %t.out
// RUN: FileCheck %s -check-prefix=SAVE < %t.out
// RUN: find %t/cache -name '*.json' -o -type f | FileCheck %s -check-prefix=CACHE
// CACHE: {{.}}
// OPEN: > diags main.cpp
// OPEN-NEXT: diagnostics main.cpp v1: 3
#include <torch/torch.h>

#define TO_DEVICE(e, d) (e).to(d)

torch::Tensor make(torch::Device device) {
  return torch::ones({2}).to(device);
  // OPEN-NEXT: [[@LINE-1]]:27-[[@LINE-1]]:29 torch-create-then-move severity=2 source=torchtidy href=torch-create-then-move.md: 'ones' fills the tensor on the CPU and '.to()' then copies it to the device; create it there: pass 'torch::TensorOptions().device(...)' to 'ones'
}

torch::Tensor make_macro(torch::Device device) { return TO_DEVICE(torch::zeros({3}), device); }
// OPEN-NEXT: [[@LINE-1]]:57-{{.*}} torch-create-then-move severity=2 {{.*}}: 'zeros' fills the tensor on the CPU
// OPEN-NEXT: note main.cpp:15:29: expanded from macro 'TO_DEVICE'

float loop(torch::Tensor t) {
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += t.sum().item<float>();
  // OPEN-NEXT: [[@LINE-1]]:22-[[@LINE-1]]:26 torch-host-sync-in-loop severity=2 {{.*}}: '.item()' copies the value to the host
  return total;
}

// The steps; the checks above are in the order the client prints.
// STEP: db main.cpp
// STEP: init '{"checks": "-*,torch-create-then-move,torch-host-sync-in-loop", "cacheDir": "$ROOT/cache", "debounceMs": 300}'
// STEP: open main.cpp
// STEP: diags main.cpp

// Two edits in quick succession, unsaved: one analysis, of the second.
// STEP: edit main.cpp 18 "torch::ones({2}).to(device)" "torch::ones({2}, torch::TensorOptions().device(device))"
// STEP: edit main.cpp 29 "t.sum().item<float>()" "1"
// STEP: diags main.cpp
// STEP: ondisk main.cpp 18
// EDIT: > edit main.cpp 29
// EDIT-NEXT: > diags main.cpp
// EDIT-NEXT: diagnostics main.cpp v3: 1
// EDIT-NEXT: 22:57-{{.*}} torch-create-then-move
// EDIT: on disk:   return torch::ones({2}).to(device);

// Closed unsaved and opened again: the file's own findings, not the buffer's
// (which were not stored in the result cache under the file's key).
// STEP: close main.cpp
// STEP: open main.cpp
// STEP: diags main.cpp
// EDIT: diagnostics main.cpp v1: 3

// Code actions: the fix-it and NOLINT; a line without a finding has none.
// STEP: actions main.cpp 18
// STEP: actions main.cpp 29
// STEP: actions main.cpp 17
// STEP: apply main.cpp 18 0
// STEP: diags main.cpp
// STEP: apply main.cpp 29 0
// ACT: > actions main.cpp 18
// ACT-NEXT: action 0: apply the fix-it of torch-create-then-move [quickfix] preferred
// ACT-NEXT:   main.cpp 18:25-18:25 ', torch::TensorOptions().device(device)'
// ACT-NEXT:   main.cpp 18:26-18:37 ''
// ACT-NEXT: action 1: silence with // NOLINT(torch-create-then-move) [quickfix]
// ACT-NEXT:   main.cpp 18:38-18:38 ' // NOLINT(torch-create-then-move)'
// ACT-NEXT: > actions main.cpp 29
// ACT-NEXT: action 0: silence with // NOLINT(torch-host-sync-in-loop) [quickfix]
// ACT-NEXT: main.cpp 29:36-29:36 ' // NOLINT(torch-host-sync-in-loop)'
// ACT-NEXT: > actions main.cpp 17
// ACT-NEXT: > apply main.cpp 18 0
// ACT-NEXT: applied:   return torch::ones({2}, torch::TensorOptions().device(device));
// ACT-NEXT: > diags main.cpp
// ACT-NEXT: diagnostics main.cpp v2: 2
// ACT: > apply main.cpp 29 0
// ACT-NEXT: applied:     total += t.sum().item<float>(); // NOLINT(torch-host-sync-in-loop)

// Saved: analysed as it is now, the NOLINT honoured in the buffer.
// STEP: save main.cpp
// STEP: diags main.cpp
// SAVE: > save main.cpp
// SAVE-NEXT: > diags main.cpp
// SAVE-NEXT: diagnostics main.cpp v3: 1
// SAVE-NEXT: 22:57-{{.*}} torch-create-then-move
// STEP: request shutdown
// STEP: exit
// SAVE: response shutdown: null
// SAVE-NEXT: > exit
// SAVE-NEXT: exit status 0

// The program may run on a GPU (else the sync check has nothing to say).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
