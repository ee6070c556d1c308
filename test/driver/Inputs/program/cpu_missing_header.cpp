#include MISSING
#include <torch/torch.h>

// MISSING is not found: a project's header, which may hand out tensors on a
// GPU, or the header of a library that is not installed. The text Clang
// drops here says "timestamps", which names no device; the text the
// preprocessor skips is no code.
void show(const torch::Tensor &t) {
  wxMessageBox("Transcripts with timestamps", std::to_string(t.size(0))
#ifdef WITH_GPU_STATS
               + std::to_string(torch::cuda::device_count())
#endif
  );
}

void train(torch::nn::Linear &model) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    torch::Tensor loss = model(torch::randn({8, 4})).sum();
    opt.zero_grad();
    loss.backward();
    // The caller's model: where it lives is not shown here.
    opt.step();
    std::cout << loss.item<double>() << "\n";
    show(loss);
  }
}
