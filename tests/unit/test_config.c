#define _POSIX_C_SOURCE 200809L
/* Settings table: defaults parse, sizes parse, bad values are refused with
 * nothing applied, and the source of each value is tracked. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "../../src/base/config.h"

int main(void)
{
    size_t b;
    CHECK_OK(ordo_parse_size("4096", &b)); CHECK(b == 4096);
    CHECK_OK(ordo_parse_size("4K", &b));   CHECK(b == 4096);
    CHECK_OK(ordo_parse_size("4KiB", &b)); CHECK(b == 4096);
    CHECK_OK(ordo_parse_size("2m", &b));   CHECK(b == 2u << 20);
    CHECK_OK(ordo_parse_size("1G", &b));   CHECK(b == 1u << 30);
    CHECK_STATUS(ordo_parse_size("", &b), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_parse_size("-1", &b), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_parse_size("12Q", &b), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_parse_size("99999999999999999999G", &b), ORDO_ERR_INVALID_PARAM);

    unsetenv("ORDO_PIO_MAX");
    unsetenv("ORDO_ENGINES");
    CHECK_OK(ordo_config_load());
    /* chosen from the machine at ordo_init; 0 is a value of its own */
    CHECK(ordo_config.pio_max == SIZE_MAX);
    CHECK(ordo_config.engines == -1);
    char text[32];
    for (size_t i = 0; i < ordo_config_count(); i++)
        if (strcmp(ordo_config_setting(i)->name, "ORDO_ENGINES") == 0) {
            ordo_config_value_string(i, text, sizeof(text));
            CHECK(strcmp(text, "auto") == 0);
        }
    setenv("ORDO_ENGINES", "0", 1);
    setenv("ORDO_PIO_MAX", "0", 1);
    CHECK_OK(ordo_config_load());
    CHECK(ordo_config.engines == 0 && ordo_config.pio_max == 0);
    setenv("ORDO_ENGINES", "auto", 1);
    CHECK_OK(ordo_config_load());
    CHECK(ordo_config.engines == -1);
    unsetenv("ORDO_ENGINES");
    unsetenv("ORDO_PIO_MAX");
    CHECK_OK(ordo_config_load());
    for (size_t i = 0; i < ordo_config_count(); i++) {
        const ordo_setting_t *s = ordo_config_setting(i);
        CHECK(strncmp(s->name, "ORDO_", 5) == 0);
        CHECK(s->help && strlen(s->help) > 10);
        if (getenv(s->name) == NULL)
            CHECK(ordo_config_source(i) == ORDO_SOURCE_DEFAULT);
    }

    setenv("ORDO_PIO_MAX", "8K", 1);
    setenv("ORDO_ORDER", "RELAXED", 1);
    CHECK_OK(ordo_config_load());
    CHECK(ordo_config.pio_max == 8192);
    CHECK(ordo_config.order == ORDO_ORDER_RELAXED);

    setenv("ORDO_ORDER", "sloppy", 1);   /* refused: previous values stay */
    CHECK_STATUS(ordo_config_load(), ORDO_ERR_INVALID_PARAM);
    CHECK(ordo_config.order == ORDO_ORDER_RELAXED);
    unsetenv("ORDO_ORDER");
    setenv("ORDO_ENGINES", "two", 1);
    CHECK_STATUS(ordo_config_load(), ORDO_ERR_INVALID_PARAM);
    setenv("ORDO_ENGINES", "3", 1);
    setenv("ORDO_ENGINE_CHUNK", "16", 1);
    CHECK_STATUS(ordo_config_load(), ORDO_ERR_INVALID_PARAM);
    unsetenv("ORDO_ENGINE_CHUNK");
    setenv("ORDO_EPOCH_TIMEOUT", "-1", 1);   /* seconds, 0 for no limit */
    CHECK_STATUS(ordo_config_load(), ORDO_ERR_INVALID_PARAM);
    setenv("ORDO_EPOCH_TIMEOUT", "0", 1);
    CHECK_OK(ordo_config_load());
    unsetenv("ORDO_EPOCH_TIMEOUT");
    CHECK_OK(ordo_config_load());
    CHECK(ordo_config.engines == 3);

    /* the network transport's settings: lanes 1 to 8, MR_LOCAL 0 or 1 */
    CHECK(ordo_config.ofi_lanes == 1);
    CHECK(strcmp(ordo_config.tl, "self,shm,ofi") == 0);
    setenv("ORDO_OFI_LANES", "9", 1);
    CHECK_STATUS(ordo_config_load(), ORDO_ERR_INVALID_PARAM);
    setenv("ORDO_OFI_LANES", "0", 1);
    CHECK_STATUS(ordo_config_load(), ORDO_ERR_INVALID_PARAM);
    setenv("ORDO_OFI_LANES", "4", 1);
    setenv("ORDO_OFI_MR_LOCAL", "3", 1);
    CHECK_STATUS(ordo_config_load(), ORDO_ERR_INVALID_PARAM);
    setenv("ORDO_OFI_MR_LOCAL", "2", 1);   /* pin, as a NIC would */
    CHECK_OK(ordo_config_load());
    setenv("ORDO_OFI_MR_LOCAL", "1", 1);
    setenv("ORDO_BOUNCE_MAX", "2M", 1);
    CHECK_STATUS(ordo_config_load(), ORDO_ERR_INVALID_PARAM);
    setenv("ORDO_BOUNCE_MAX", "8K", 1);
    CHECK_OK(ordo_config_load());
    CHECK(ordo_config.ofi_lanes == 4 && ordo_config.ofi_mr_local == 1);
    CHECK(ordo_config.bounce_max == 8192);
    unsetenv("ORDO_OFI_LANES");
    unsetenv("ORDO_OFI_MR_LOCAL");
    unsetenv("ORDO_BOUNCE_MAX");
    CHECK_OK(ordo_config_load());

    /* ordo_init refuses a bad setting with a clear error, not a crash */
    setenv("ORDO_TL", "carrier-pigeon", 1);
    CHECK_STATUS(ordo_init(NULL), ORDO_ERR_INVALID_PARAM);
    setenv("ORDO_TL", "self", 1);
    CHECK_OK(ordo_init(NULL));
    CHECK_OK(ordo_finalize());
    return test_result("test_config");
}
