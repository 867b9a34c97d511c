#include "sim/config/CrossCheckPlace.h"

#include "sim/common/InputError.h"

namespace npusim {

std::string CrossCheckPlace::key(std::initializer_list<std::string> pointers) const {
  if (written_)
    for (const std::string& p : pointers)
      if (written_(p)) return p;
  return *pointers.begin();
}

void CrossCheckPlace::fail(std::initializer_list<std::string> pointers, const std::string& reason) const {
  throw InputError(file_, key(pointers), reason);
}

}  // namespace npusim
