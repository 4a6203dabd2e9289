package billing

import _ "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"
