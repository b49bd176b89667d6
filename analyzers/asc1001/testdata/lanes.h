// Constants and helpers a kernel takes from a header of its repository
// (values.asc includes this file): the project index must see them.
#ifndef ASCVET_FIXTURE_LANES_H
#define ASCVET_FIXTURE_LANES_H

#define BLOCK_BYTES 32
#define PAD_LANES (ROW_LANES + BLOCK_BYTES / sizeof(float))

constexpr uint32_t ROW_LANES = VECTOR_REG_WIDTH / sizeof(float);

template <typename T>
__aicore__ inline constexpr uint32_t LanesOf()
{
    return GetVecLen() / sizeof(T);
}

#endif
