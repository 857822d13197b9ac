#include "CLibraryLoader.h"
#include <stdio.h>

int ledring_library_load(struct ledring_library *library, char *error, size_t size) {
    pthread_mutex_lock(&library->lock);
    if (library->state == 0) {
        void *handle = NULL;
        for (size_t i = 0; i < library->soname_count && handle == NULL; i++) {
            handle = dlopen(library->sonames[i], RTLD_NOW | RTLD_LOCAL);
        }
        const char *missing = NULL;
        if (handle == NULL) {
            const char *said = dlerror();
            snprintf(library->error, sizeof library->error, "%s", said != NULL ? said : "dlopen failed");
        } else if ((missing = library->bind(handle)) != NULL) {
            snprintf(library->error, sizeof library->error, "%s has no %s (too old?)", library->sonames[0], missing);
        }
        library->state = handle != NULL && missing == NULL ? 1 : -1;
    }
    int state = library->state;
    if (state != 1 && error != NULL && size > 0) snprintf(error, size, "%s", library->error);
    pthread_mutex_unlock(&library->lock);
    return state == 1 ? 0 : -1;
}
