// Host tensors known through containers and parameters: a
// std::vector<torch::Tensor> filled only with host tensors, its elements,
// torch::cat / torch::stack of it, and a parameter that every call of its
// function passes a host value. Reads from them wait for no GPU; a
// container or parameter that may hold a device tensor still does.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define GATHER(v, x) (v).push_back((x).detach().cpu())

void fill(std::vector<torch::Tensor> &v);
std::vector<torch::Tensor> unknown_boxes();

// Puts only host tensors into the container it is given.
static void fill_host(std::vector<torch::Tensor> &v, const torch::Tensor &x) { v.push_back(x.cpu()); }
static void fill_any(std::vector<torch::Tensor> &v, const torch::Tensor &x) { v.push_back(x); }

// Every return is a container of host tensors.
static std::vector<torch::Tensor> host_boxes(torch::Tensor pred) {
  std::vector<torch::Tensor> out;
  for (int i = 0; i < 2; ++i)
    out.push_back(torch::zeros({0, 6}));
  out[0] = pred.index_select(0, torch::arange(2)).cpu();
  return out;
}

// Its one caller passes host tensors: no read below waits.
static float draw(const torch::Tensor &rect, std::vector<torch::Tensor> parts) {
  float total = 0;
  for (int i = 0; i < rect.size(0); ++i)
    total += rect[i][5].item<float>() + parts[i].item<float>();
  return total;
}

// One caller passes a device tensor.
static float mixed(torch::Tensor t) {
  float total = 0;
  for (int i = 0; i < 4; ++i)
    total += t[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.item()' copies the value to the host
  return total;
}

// Called through a pointer too: its callers are not all known.
static float pointed(torch::Tensor t) {
  float total = 0;
  for (int i = 0; i < 4; ++i)
    total += t[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.item()' copies the value to the host
  return total;
}

// Changes its parameter before reading it.
static float moves(torch::Tensor t, torch::Device d) {
  t = t.to(d);
  float total = 0;
  for (int i = 0; i < 4; ++i)
    total += t[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.item()' copies the value to the host
  return total;
}

// Callable from other files, and never called in this program.
float exported(torch::Tensor t) {
  float total = 0;
  for (int i = 0; i < 4; ++i)
    total += t[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.item()' copies the value to the host
  return total;
}

// Callable from other files; this program's only call passes a host tensor.
float called_with_host(const torch::Tensor &t) {
  float total = 0;
  for (int i = 0; i < 4; ++i)
    total += t[i].item<float>();
  return total;
}

template <typename T> float sum_items(const std::vector<T> &v) {
  float total = 0;
  for (const auto &t : v)
    total += t.sum().template item<float>();
  return total;
}

struct Reader {
  virtual ~Reader() = default;
  virtual float read(torch::Tensor t) {
    float total = 0;
    for (int i = 0; i < 4; ++i)
      total += t[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.item()' copies the value to the host
    return total;
  }
};

// Its one written call passes a host tensor, but LibTorch calls forward
// too (net(x), a Sequential): its callers are not all shown.
struct ScorerImpl : torch::nn::Module {
  float forward(torch::Tensor t) {
    float total = 0;
    for (int i = 0; i < 4; ++i)
      total += t[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.item()' copies the value to the host
    return total;
  }
};
TORCH_MODULE(Scorer);

float score(Scorer &net, const torch::Tensor &x) { return net->forward(x.cpu()) + net(x); }

// Iterators that only read (compared, stepped, dereferenced to read an
// element) leave a container's tensors where they were put; one that
// writes an element may put a device tensor there.
class Labels {
public:
  explicit Labels(const torch::Tensor &x) : labels_{x.cpu(), torch::ones({2})} {}
  std::vector<torch::Tensor> row(int64_t i) {
    std::vector<torch::Tensor> out;
    for (auto it = labels_.begin(); it != labels_.end(); it++)
      out.push_back((*it)[i]);
    return out;
  }
  float weights() const {
    float total = 0;
    for (size_t i = 0; i < labels_.size(); i++)
      total += labels_[i].max().item<float>();
    return total;
  }

private:
  std::vector<torch::Tensor> labels_;
};

float iterated(const torch::Tensor &x, torch::Device device) {
  std::vector<torch::Tensor> read{x.cpu()}, written{x.cpu()};
  std::vector<torch::Tensor>::iterator last;
  for (auto it = read.begin(); it != read.end(); ++it)
    last = it;
  auto w = written.begin();
  *w = x.to(device);
  float total = 0;
  for (int i = 0; i < 4; ++i) {
    total += read[i].item<float>();
    total += written[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '.item()' copies the value to the host
  }
  return total;
}

float run(torch::Tensor pred, torch::Tensor x, Reader &r) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<torch::Tensor> host, on_device, escaped, listed{x.cpu(), torch::ones({2})};
  std::vector<torch::Tensor> sized(4, torch::zeros({2})), aliased, bound;
  auto gathered = std::vector<torch::Tensor>{};
  auto add = [&](const torch::Tensor &y) { gathered.push_back(y.cpu()); };
  float (*fp)(torch::Tensor) = pointed;
  auto xc = x.cpu();
  for (int i = 0; i < 4; ++i) {
    host.push_back(xc[i].cpu());
    host.emplace_back(torch::zeros({2}));
    GATHER(gathered, xc[i]);
    add(xc[i]);  // reads its parameter, here on the host: no wait
    add(pred);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'add' runs '.cpu()'
    sized[i] = xc[i].to(torch::kCPU);
    on_device.push_back(xc[i].to(device));
    escaped.push_back(xc[i].cpu());
    aliased.push_back(xc[i].cpu());
    bound.push_back(xc[i].cpu());
  }
  fill(escaped);
  std::vector<torch::Tensor> filled, filled_any;
  fill_host(filled, x);
  fill_any(filled_any, x);
  std::vector<torch::Tensor> *alias = &aliased;
  auto &first = bound[0];
  first = x.to(device);
  float total = 0;
  auto boxes = host_boxes(pred);
  for (int i = 0; i < 4; ++i) {
    total += host[i].item<float>() + host.at(i).item<float>() + host.front().item<float>();
    total += host.back().item<float>() + torch::cat(host)[i].item<float>();
    total += torch::stack(gathered).sum().item<float>() + listed[0].item<float>();
    total += sized[i].item<float>() + boxes[0][i].item<float>();
    for (const auto &t : host)
      total += t.item<float>();
    total += draw(boxes[0], host) + sum_items(host) + called_with_host(host[i]);
    total += mixed(host[i]) + mixed(x) + fp(x) + moves(host[i], device);
    total += on_device[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '.item()' copies the value to the host
    total += escaped[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '.item()' copies the value to the host
    total += aliased[i].item<float>() + (*alias)[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '.item()' copies the value to the host
    // CHECK-MESSAGES: :[[@LINE-2]]:53: warning: '.item()' copies the value to the host
    total += filled[i].item<float>() + filled_any[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: '.item()' copies the value to the host
    total += bound[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '.item()' copies the value to the host
    total += unknown_boxes()[i].item<float>() + r.read(host[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: '.item()' copies the value to the host
  }
  return total;
}
