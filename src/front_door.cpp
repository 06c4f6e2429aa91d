#include "front_door.hpp"

#include <string>

#include "core/overlap.hpp"
#include "core/size.hpp"
#include "fastblur/error.hpp"

namespace fastblur::front_door {

namespace {
std::string shape_text(const View& v) {
  return std::to_string(v.width()) + "x" + std::to_string(v.height()) + "x" + std::to_string(v.depth()) + "x" +
         std::to_string(v.channels);
}
}  // namespace

void check_views(const View& src, const View& dst) {
  validate_source(src);
  validate_destination(dst);
  if (src.extent != dst.extent || src.channels != dst.channels)
    throw InvalidArgument("source and destination differ in shape: " + shape_text(src) + " vs " + shape_text(dst));
}

void with_separate_source(const View& src, const View& dst, const std::function<void(const View& source)>& run) {
  if (!core::views_overlap(src, dst) || core::same_layout(src, dst)) {
    run(src);
    return;
  }
  const std::size_t bytes = static_cast<std::size_t>(src.pixel_count()) * static_cast<std::size_t>(src.channels) *
                            element_size(src.type);
  core::UniqueBytes copy = core::allocate_bytes(bytes, "copy of the overlapping source");
  run(core::copy_packed(src, copy.get()));
}

namespace {
thread_local std::optional<RunRecord> last;
}  // namespace

void record_run(const Plan& plan) noexcept {
  RunRecord r;
  r.algorithm = plan.algorithm;
  r.schedule = plan.schedule;
  r.rounding = plan.spec.rounding;
  r.source = plan.source;
  r.destination = plan.destination;
  last = r;
}

}  // namespace fastblur::front_door

namespace fastblur {
std::optional<RunRecord> last_run() noexcept { return front_door::last; }
}  // namespace fastblur
