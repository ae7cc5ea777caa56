-- Rate limiting: fixed-window request counters shared by every gateway process (RATE_LIMIT_STORE=postgres).

-- CreateTable
CREATE TABLE "rate_limit_windows" (
    "key" TEXT NOT NULL,
    "hits" INTEGER NOT NULL,
    "window_ends" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "rate_limit_windows_window_ends_idx" ON "rate_limit_windows"("window_ends");
