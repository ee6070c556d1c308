// Checked by ../unresolved_calls.test.
#include <torch/torch.h>
#include <opencv2/opencv.hpp>

// Copies the batch to the device on every call.
static torch::Tensor upload(cv::Mat &img, torch::Tensor batch, torch::Device device) {
  return batch.to(device);
}

// Two functions of the name take three arguments: which one runs is unknown.
static torch::Tensor send(cv::Mat &img, torch::Tensor batch, torch::Device device) {
  return batch.to(device);
}
static torch::Tensor send(cv::Mat &img, torch::Tensor batch, int stream) { return batch; }

// Two functions of the name take two arguments, and both copy (one through
// the other): whichever runs, the copy is made.
static torch::Tensor stage(torch::Tensor batch, torch::Device device) { return batch.to(device); }
static torch::Tensor stage(std::vector<torch::Tensor> batch, torch::Device device) {
  return stage(torch::cat(batch), device);
}

torch::Tensor to_tensor(cv::Mat img);

struct Camera {
  torch::Tensor position;
};

// The point's type is missing, so Clang cannot build the values: the
// factory's call keeps its callee and options all the same.
static void place(Camera &camera, const cv::Point3f &p, torch::Device device) {
  camera.position = torch::tensor({p.x, p.y, p.z}, torch::TensorOptions().device(device));
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  cv::Mat frame = cv::imread("frame.png");
  for (int step = 0; step < 10; ++step) {
    upload(frame, torch::rand({8, 3}), device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'upload' runs '.to(device)'
    send(frame, torch::rand({8, 3}), device);
    stage(frame, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'stage' runs '.to(device)'
    // CHECK-MESSAGES: :18:86: note: the copy '.to(device)' is made here
  }
  for (int step = 0; step < 10; ++step) {
    // Clang dropped the initialiser: where the tensor lives is unknown.
    torch::Tensor input = to_tensor(frame);
    auto x = input.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.to(device)' is a blocking copy from host to device
  }
  Camera camera;
  auto eye = cv::Point3f(0, 0, 1);
  while (cv::waitKey(1) != 27) {
    place(camera, eye, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'place' runs 'torch::tensor(values, options)'
    // CHECK-MESSAGES: :32:21: note: the copy 'torch::tensor(values, options)' is made here
  }
}
