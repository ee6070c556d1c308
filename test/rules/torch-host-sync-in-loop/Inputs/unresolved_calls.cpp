// Checked by ../unresolved_calls.test.
#include <torch/torch.h>
#include <opencv2/opencv.hpp>

// One call Clang resolved passes a host tensor; the other passes an
// image's size, which Clang cannot type here, and a device tensor.
static float total(torch::Tensor boxes, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += boxes[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.item()' copies the value to the host
  return sum;
}

// Both calls pass host tensors, one of them unresolved.
static float peak(torch::Tensor boxes, int n) {
  float best = 0;
  for (int i = 0; i < n; ++i)
    best = std::max(best, boxes[i].item<float>());
  return best;
}
static float peak(torch::Tensor boxes) { return boxes.max().item<float>(); }

// Returns a host tensor.
static torch::Tensor crop(cv::Mat img, torch::Tensor pred) { return pred.cpu(); }

// Reads a value back to the host on every call.
static void show(cv::Mat &img, torch::Tensor scores) { std::cout << scores.max().item<float>(); }

std::vector<torch::Tensor> crop_all(cv::Mat img, torch::Tensor pred);

// Fills the container it is given with what the image gives.
void fill(cv::Mat img, std::vector<torch::Tensor> &out);

struct Painter {
  // Of the overloads, only this one takes two arguments.
  void mark(cv::Mat &img, torch::Tensor boxes) {
    float best = 0;
    for (int i = 0; i < boxes.size(0); ++i)
      best = std::max(best, boxes[i][4].item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: '.item()' copies the value to the host
    label(img, best);
  }
  void mark(cv::Mat &img, torch::Tensor boxes, int thickness);
  void mark_host(cv::Mat &img, torch::Tensor boxes) {
    float best = 0;
    for (int i = 0; i < boxes.size(0); ++i)
      best = std::max(best, boxes[i][4].item<float>());
    label(img, best);
  }
  void label(cv::Mat &img, float score);
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor pred = torch::rand({4, 6}, device);
  cv::Mat frame = cv::imread("frame.png");
  total(torch::rand({4}), 4);
  total(pred, frame.rows);
  peak(torch::rand({4}), 4);
  peak(torch::rand({4}), frame.rows);
  peak(crop(frame, pred), 4);

  for (int step = 0; step < 10; ++step)
    show(frame, pred);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'show' runs '.item()'

  // Clang dropped the initialiser: what the vector holds is unknown.
  std::vector<torch::Tensor> kept = crop_all(frame, pred);
  for (size_t i = 0; i < kept.size(); ++i)
    std::cout << kept[i].sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: '.item()' copies the value to the host

  // Host tensors first, then whatever fill puts there.
  std::vector<torch::Tensor> found{torch::zeros({1})};
  fill(frame, found);
  for (size_t i = 0; i < found.size(); ++i)
    std::cout << found[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '.item()' copies the value to the host

  Painter painter;
  painter.mark(frame, pred);
  painter.mark_host(frame, pred.cpu());
}
